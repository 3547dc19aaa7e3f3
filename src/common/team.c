/* Thread teams (see team.h). */
#include "common/team.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct team {
	int n;
	int pin;
	pthread_barrier_t barrier;
	team_fn fn;
	void *arg;
	int pin_failed;   /* first failing CPU + 1, 0 when all pins succeeded */
	int gate;         /* 0 closed, 1 open (all threads exist), -1 aborted */
	pthread_mutex_t lock;
	pthread_cond_t opened;
};

struct member {
	struct team *team;
	int tid;
	int cpu;
};

static void *member_main(void *p)
{
	struct member *m = p;
	struct team *t = m->team;
	/* Wait until every thread exists: a failed pthread_create aborts the run before anyone
	 * reaches the barrier, which counts all n members. */
	pthread_mutex_lock(&t->lock);
	while (t->gate == 0)
		pthread_cond_wait(&t->opened, &t->lock);
	int go = t->gate > 0;
	pthread_mutex_unlock(&t->lock);
	if (!go)
		return NULL;
	if (t->pin && cpu_pin_self(m->cpu, NULL) != 0) {
		pthread_mutex_lock(&t->lock);
		if (!t->pin_failed)
			t->pin_failed = m->cpu + 1;
		pthread_mutex_unlock(&t->lock);
	}
	/* Start together: nobody begins before everyone is pinned, so an early thread does not get
	 * the memory system to itself. A failed pin is seen by all after this barrier. */
	pthread_barrier_wait(&t->barrier);
	if (!t->pin_failed)
		t->fn(t, m->tid, m->cpu, t->arg);
	return NULL;
}

static void gate_set(struct team *t, int state)
{
	pthread_mutex_lock(&t->lock);
	t->gate = state;
	pthread_cond_broadcast(&t->opened);
	pthread_mutex_unlock(&t->lock);
}

int team_run(const struct as_cpulist *cpus, int pin, team_fn fn, void *arg, struct as_error *err)
{
	if (cpus->n < 1)
		return as_error_set(err, -EINVAL, "thread team needs at least one cpu");
	struct team t = { .n = cpus->n, .pin = pin, .fn = fn, .arg = arg };
	pthread_mutex_init(&t.lock, NULL);
	pthread_cond_init(&t.opened, NULL);
	pthread_barrier_init(&t.barrier, NULL, (unsigned)cpus->n);
	struct member *members = calloc((size_t)cpus->n, sizeof(*members));
	pthread_t *threads = calloc((size_t)cpus->n, sizeof(*threads));
	int rc = 0, started = 0;
	if (!members || !threads) {
		rc = as_error_set(err, -ENOMEM, "out of memory for a team of %d threads", cpus->n);
		goto out;
	}
	/* Member 0 runs on the calling thread, so a one-thread team costs no thread creation. */
	for (int i = 1; i < cpus->n; i++) {
		members[i] = (struct member){ &t, i, cpus->cpu[i] };
		int e = pthread_create(&threads[i], NULL, member_main, &members[i]);
		if (e) {
			rc = as_error_set(err, -e, "cannot start thread %d of %d: %s", i, cpus->n, strerror(e));
			break;
		}
		started = i;
	}
	gate_set(&t, rc == 0 ? 1 : -1);
	if (rc == 0) {
		cpu_set_t saved;
		int restore = pin && pthread_getaffinity_np(pthread_self(), sizeof(saved), &saved) == 0;
		members[0] = (struct member){ &t, 0, cpus->cpu[0] };
		member_main(&members[0]);
		if (restore)
			pthread_setaffinity_np(pthread_self(), sizeof(saved), &saved);
	}
	for (int i = 1; i <= started; i++)
		pthread_join(threads[i], NULL);
	if (rc == 0 && t.pin_failed > 0)
		rc = as_error_set(err, -EINVAL, "cannot pin a thread to cpu %d", t.pin_failed - 1);
out:
	free(members);
	free(threads);
	pthread_barrier_destroy(&t.barrier);
	pthread_cond_destroy(&t.opened);
	pthread_mutex_destroy(&t.lock);
	return rc;
}

void team_barrier(struct team *team)
{
	pthread_barrier_wait(&team->barrier);
}

int team_size(const struct team *team)
{
	return team->n;
}
