/* Embarrassingly parallel: each thread does its share of independent work; no delimiter. */
#include "common.h"

static uint64_t result[1024];

static void *worker(void *arg)
{
	long id = (long)arg;
	uint64_t x = (uint64_t)id;
	for (long u = id; u < example_units; u += example_threads)
		x = example_work(x + (uint64_t)u);
	result[id] = x;
	return NULL;
}

int main(int argc, char **argv)
{
	example_args(argc, argv);
	example_fork_join(worker);
	example_print_odd("parallel", result);
	return 0;
}
