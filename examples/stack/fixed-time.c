/* A fixed-time program (sysbench's default, a benchmark that runs for a given time): each of
 * THREADS threads does units of work until UNITS milliseconds have passed, and the total done is
 * printed. Its time does not shrink with N; its work grows: stack reports the scaled speedup
 * (Gustafson) beside the strong-scaling one, not work_inflation. */
#include <time.h>

#include "common.h"

static double deadline;
static uint64_t done[1024];

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *worker(void *arg)
{
	long id = (long)arg;
	uint64_t x = (uint64_t)id, n = 0;
	while (now_s() < deadline) {
		x = example_work_n(x, 4000); /* 10 us */
		n++;
	}
	done[id] = n + (x & 1);
	return NULL;
}

int main(int argc, char **argv)
{
	example_args(argc, argv);
	deadline = now_s() + (double)example_units * 1e-3;
	example_fork_join(worker);
	uint64_t total = 0;
	for (int i = 0; i < example_threads; i++)
		total += done[i];
	printf("fixed-time: %d threads did %llu units in %ld ms\n", example_threads, (unsigned long long)total,
	       example_units);
	return 0;
}
