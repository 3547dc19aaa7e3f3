/* A mutex around most of the work: threads queue on the lock (yielding: mutex). */
#include "common.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t shared;

static void *worker(void *arg)
{
	long id = (long)arg;
	uint64_t mine = (uint64_t)id;
	for (long u = id; u < example_units; u += example_threads) {
		pthread_mutex_lock(&lock);
		shared = example_work(shared + (uint64_t)u);
		pthread_mutex_unlock(&lock);
		mine = example_work_between(mine);
	}
	return (void *)(uintptr_t)(mine & 1);
}

int main(int argc, char **argv)
{
	example_args(argc, argv);
	example_fork_join(worker);
	printf("mutex: %ld units done\n", example_units);
	return 0;
}
