/* A hand-written spin lock (a ticket polled with PAUSE) whose threads time their own spinning with
 * their CPU clock, to check `stack`'s sampled spinning against (t0109): "spin-timed THREADS UNITS
 * MODE LOG" with MODE "join" (THREADS workers, main only joins them) or "work" (main is one of the
 * THREADS workers); each run appends "THREADS SPIN_CPU_S" to LOG: the CPU seconds all threads
 * spent waiting for the lock (clock_gettime(CLOCK_THREAD_CPUTIME_ID) around each wait that did
 * not get the lock at once), less the clock's own cost: each timed wait also holds the end of one
 * clock read and the start of the next (a system call in a KVM guest, a fair part of a wait of a
 * few microseconds), calibrated as the median of back-to-back reads. */
#include <string.h>
#include <time.h>

#include "common.h"

static unsigned next_ticket, now_serving;
static uint64_t shared;
static double spin_cpu[1024];
static long spin_waits[1024];

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void spin_lock(long id)
{
	unsigned my = __atomic_fetch_add(&next_ticket, 1, __ATOMIC_RELAXED);
	if (__atomic_load_n(&now_serving, __ATOMIC_ACQUIRE) == my)
		return;
	double t0 = cpu_now();
	while (__atomic_load_n(&now_serving, __ATOMIC_ACQUIRE) != my)
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#elif defined(__aarch64__)
		__asm__ volatile("yield");
#else
		;
#endif
	spin_cpu[id] += cpu_now() - t0;
	spin_waits[id]++;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* What one timed wait adds beyond its spinning: the median gap between two back-to-back reads. */
static double clock_cost(void)
{
	static double gap[1001];
	for (int i = 0; i < 1001; i++) {
		double a = cpu_now();
		gap[i] = cpu_now() - a;
	}
	qsort(gap, 1001, sizeof(gap[0]), cmp_double);
	return gap[500];
}

static void spin_unlock(void)
{
	__atomic_store_n(&now_serving, now_serving + 1, __ATOMIC_RELEASE);
}

static void *worker(void *arg)
{
	long id = (long)arg;
	uint64_t local = (uint64_t)id;
	for (long u = id; u < example_units; u += example_threads) {
		/* work outside the lock, 10000-29999 iterations, and a critical section of 20000-59999
		 * (its mean, 40000, is example_work's), both drawn from a hash of the unit: a program
		 * with a fixed critical section has a strictly periodic lock rhythm (the holders hand
		 * the lock on every 2 x 40000 iterations, ~107 us, whatever the work between), and a
		 * sampler of fixed period that also delays the thread it samples (~14 us an
		 * interrupt) locks onto that rhythm: with a fixed critical section and fixed work
		 * drawn from a Weyl sequence, the thread sampled every 3.49 ms read 0.28-0.33 of its
		 * samples in the loop and the one sampled every 3.24 ms 0.21-0.25, where both timed
		 * 0.25 (docs/archscope-stack.md) */
		uint64_t h = (uint64_t)u * 0x9e3779b97f4a7c15u; /* splitmix64's finaliser */
		h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9u;
		h = (h ^ (h >> 27)) * 0x94d049bb133111ebu;
		h ^= h >> 31;
		local = example_work_n(local, 10000 + (int)(h % 20000));
		spin_lock(id);
		shared = example_work_n(shared + (uint64_t)u, 20000 + (int)((h >> 32) % 40000));
		spin_unlock();
	}
	return (void *)(uintptr_t)(local & 1);
}

int main(int argc, char **argv)
{
	if (argc < 5 || (strcmp(argv[3], "join") && strcmp(argv[3], "work"))) {
		fprintf(stderr, "usage: %s THREADS UNITS join|work LOG\n", argv[0]);
		return 2;
	}
	example_args(3, argv);
	int main_works = !strcmp(argv[3], "work");
	pthread_t th[1024];
	long first = main_works ? 1 : 0;
	for (long i = first; i < example_threads; i++)
		if (pthread_create(&th[i], NULL, worker, (void *)i) != 0) {
			perror("pthread_create");
			return 1;
		}
	if (main_works)
		worker((void *)0);
	for (long i = first; i < example_threads; i++)
		pthread_join(th[i], NULL);
	double total = 0, cost = clock_cost();
	for (int i = 0; i < example_threads; i++)
		total += spin_cpu[i] - (double)spin_waits[i] * cost;
	if (total < 0)
		total = 0;
	FILE *log = fopen(argv[4], "a");
	if (!log) {
		perror(argv[4]);
		return 1;
	}
	fprintf(log, "%d %.6f\n", example_threads, total);
	fclose(log);
	printf("spin-timed: %ld units, %d threads (%s), %.6f s spinning\n", example_units, example_threads, argv[3], total);
	return 0;
}
