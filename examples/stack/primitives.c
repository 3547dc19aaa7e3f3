/* Every wrapped primitive once, with the results and errno values a program sees, printed: the
 * output must be the same with and without the preload library (tests/cli/t0103). */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static struct timespec soon(long ms)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_nsec += ms * 1000000L;
	t.tv_sec += t.tv_nsec / 1000000000L;
	t.tv_nsec %= 1000000000L;
	return t;
}

static pthread_barrier_t bar;
static int serials; /* threads told they are the barrier's serial thread: always 1 */

static void *child(void *arg)
{
	int serial = pthread_barrier_wait(&bar) == PTHREAD_BARRIER_SERIAL_THREAD;
	(void)arg;
	__atomic_add_fetch(&serials, serial, __ATOMIC_RELAXED);
	if (serial)
		pthread_exit((void *)7);
	return (void *)7;
}

int main(void)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_mutex_lock(&m);
	printf("mutex trylock held: %d\n", pthread_mutex_trylock(&m));
	struct timespec t = soon(5);
	printf("mutex timedlock held: %d\n", pthread_mutex_timedlock(&m, &t));
	pthread_mutex_unlock(&m);

	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_t e;
	pthread_mutex_init(&e, &a);
	pthread_mutex_lock(&e);
	printf("errorcheck relock: %d\n", pthread_mutex_lock(&e));
	pthread_mutex_unlock(&e);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_t r;
	pthread_mutex_init(&r, &a);
	printf("recursive lock twice: %d %d\n", pthread_mutex_lock(&r), pthread_mutex_lock(&r));

	pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
	pthread_rwlock_wrlock(&rw);
	printf("rwlock tryrdlock held: %d\n", pthread_rwlock_tryrdlock(&rw));
	t = soon(5);
	printf("rwlock timedrdlock held: %d\n", pthread_rwlock_timedrdlock(&rw, &t));
	pthread_rwlock_unlock(&rw);
	printf("rwlock rdlock free: %d\n", pthread_rwlock_rdlock(&rw));

	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	pthread_mutex_lock(&m);
	t = soon(5);
	printf("cond timedwait: %d\n", pthread_cond_timedwait(&c, &m, &t));
	pthread_mutex_unlock(&m);

	sem_t s;
	sem_init(&s, 0, 0);
	errno = 0;
	int rc = sem_trywait(&s);
	printf("sem trywait empty: %d errno %d\n", rc, errno);
	t = soon(5);
	errno = 0;
	rc = sem_timedwait(&s, &t);
	printf("sem timedwait empty: %d errno %d\n", rc, errno);
	sem_post(&s);
	errno = 0;
	rc = sem_wait(&s);
	printf("sem wait posted: %d errno %d\n", rc, errno);

	pthread_spinlock_t sp;
	pthread_spin_init(&sp, 0);
	pthread_spin_lock(&sp);
	printf("spin trylock held: %d\n", pthread_spin_trylock(&sp));
	pthread_spin_unlock(&sp);

	printf("sched_yield: %d\n", sched_yield());
	struct timespec d = { 0, 1000000 };
	printf("nanosleep: %d usleep: %d\n", nanosleep(&d, NULL), usleep(1000));
	printf("syscall getpid same: %d\n", syscall(SYS_getpid) == getpid());
	int word = 1;
	errno = 0;
	long f = syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
	printf("futex wait wrong value: %ld errno %d\n", f, errno);

	pthread_barrier_init(&bar, NULL, 3);
	pthread_t th[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, child, NULL);
	__atomic_add_fetch(&serials, pthread_barrier_wait(&bar) == PTHREAD_BARRIER_SERIAL_THREAD, __ATOMIC_RELAXED);
	void *ret[2];
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], &ret[i]);
	printf("threads returned %ld %ld; serial threads %d\n", (long)ret[0], (long)ret[1], serials);
	return 3;
}
