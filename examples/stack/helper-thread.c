/* A program whose "1-thread" run is not serial, as zstd -T1's is (a worker compresses while the
 * main thread reads and writes): THREADS workers share UNITS units of work while the main thread
 * does UNITS / 4 of its own beside them, then joins. At 1 thread two CPUs are busy with work
 * (1.25 of them over the run): S = T1/TN is held against a parallel run, and stack reports the
 * speedup over that run's work on one CPU beside it. */
#include "common.h"

static uint64_t result[1024];

static void *worker(void *arg)
{
	long id = (long)arg;
	long share = example_units / example_threads + (id < example_units % example_threads);
	uint64_t x = (uint64_t)id + 1;
	for (long u = 0; u < share; u++)
		x = example_work(x);
	result[id] = x;
	return NULL;
}

int main(int argc, char **argv)
{
	example_args(argc, argv);
	pthread_t th[1024];
	for (long i = 0; i < example_threads; i++)
		if (pthread_create(&th[i], NULL, worker, (void *)i) != 0) {
			perror("pthread_create");
			return 1;
		}
	uint64_t mine = 7; /* the main thread's own work, beside the workers */
	for (long u = 0; u < example_units / 4; u++)
		mine = example_work(mine);
	for (int i = 0; i < example_threads; i++)
		pthread_join(th[i], NULL);
	result[0] ^= mine & 1;
	example_print_odd("helper-thread", result);
	return 0;
}
