/* Phases separated by a barrier, each with one slow thread that rotates: the others wait at the
 * barrier (yielding: barrier). */
#include "common.h"

static pthread_barrier_t barrier;
static uint64_t result[1024];

#define PHASES 20

static void *worker(void *arg)
{
	long id = (long)arg;
	uint64_t x = (uint64_t)id;
	long per = example_units / PHASES / (example_threads + 3);
	if (per < 1)
		per = 1;
	for (int ph = 0; ph < PHASES; ph++) {
		/* the slow thread of this phase does 4 shares, the others 1 */
		long n = ph % example_threads == id ? 4 * per : per;
		for (long u = 0; u < n; u++)
			x = example_work(x + (uint64_t)u);
		pthread_barrier_wait(&barrier);
	}
	result[id] = x;
	return NULL;
}

int main(int argc, char **argv)
{
	example_args(argc, argv);
	pthread_barrier_init(&barrier, NULL, (unsigned)example_threads);
	example_fork_join(worker);
	example_print_odd("barrier", result);
	return 0;
}
