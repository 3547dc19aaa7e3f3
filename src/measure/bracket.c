/* Counting around a spawned program's timed repetitions; see bracket.h. */
#include "measure/bracket.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int measure_bracket_init(struct measure_bracket *b, const char *const names[], int n, struct as_error *err)
{
	memset(b, 0, sizeof(*b));
	if (n < 1 || n > COUNTERS_MAX)
		return as_error_set(err, -E2BIG, "counting: %d events, the most is %d", n, COUNTERS_MAX);
	b->n = n;
	for (int i = 0; i < n; i++) {
		snprintf(b->name[i], sizeof(b->name[i]), "%s", names[i]);
		b->names[i] = b->name[i];
	}
	return 0;
}

static void fail(struct measure_bracket *b, const char *msg)
{
	b->failed = 1;
	as_error_copy(b->reason, sizeof(b->reason), msg);
}

/* The program is stopped: before a repetition (even nth) the counters start, after it (odd) they
 * stop and are read. */
static int on_stop(void *ctx, int pid, int nth)
{
	struct measure_bracket *b = ctx;
	struct as_error err = { 0 };
	if (b->failed)
		return 0;
	if (nth % 2 == 0) {
		if (!b->open) {
			if (counters_open(&b->set, b->names, b->n, (pid_t)pid, &err) != 0) {
				fail(b, err.msg);
				return 0;
			}
			b->open = 1;
			for (int i = 0; i < b->n; i++)
				snprintf(b->fq[i], sizeof(b->fq[i]), "%s", b->set.fq[i]);
		}
		if (counters_reset_enable(&b->set) != 0)
			fail(b, "cannot enable the counters");
		return 0;
	}
	if (!b->open)
		return 0;
	if (counters_disable(&b->set) != 0 || counters_read(&b->set, &err) != 0) {
		fail(b, err.msg[0] ? err.msg : "cannot stop the counters");
		return 0;
	}
	if (!b->counted || b->set.value[0] < b->best[0])
		for (int i = 0; i < b->n; i++)
			b->best[i] = b->set.value[i];
	b->counted++;
	return 0;
}

struct spawn_hooks measure_bracket_hooks(struct measure_bracket *b)
{
	return (struct spawn_hooks){ on_stop, b };
}

void measure_bracket_release(struct measure_bracket *b)
{
	if (b->open)
		counters_close(&b->set);
	b->open = 0;
	if (!b->counted && !b->failed)
		snprintf(b->reason, sizeof(b->reason), "the benchmark did not stop for counting");
}
