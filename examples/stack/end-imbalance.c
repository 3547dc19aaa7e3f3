/* Uneven shares: thread i gets work in proportion to i + 1, and the early ones wait for the last
 * at the join (imbalance). */
#include "common.h"

static uint64_t result[1024];

static void *worker(void *arg)
{
	long id = (long)arg;
	long total = (long)example_threads * (example_threads + 1) / 2;
	long n = example_units * (id + 1) / total;
	uint64_t x = (uint64_t)id;
	for (long u = 0; u < n; u++)
		x = example_work(x + (uint64_t)u);
	result[id] = x;
	return NULL;
}

int main(int argc, char **argv)
{
	example_args(argc, argv);
	example_fork_join(worker);
	example_print_odd("end-imbalance", result);
	return 0;
}
