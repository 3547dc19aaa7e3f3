/* A pthread spin lock around most of the work: waiting threads spin (spinning: pthread_spin). */
#include "common.h"

static pthread_spinlock_t lock;
static uint64_t shared;

static void *worker(void *arg)
{
	long id = (long)arg;
	uint64_t mine = (uint64_t)id;
	for (long u = id; u < example_units; u += example_threads) {
		pthread_spin_lock(&lock);
		shared = example_work(shared + (uint64_t)u);
		pthread_spin_unlock(&lock);
		mine = example_work_between(mine);
	}
	return (void *)(uintptr_t)(mine & 1);
}

int main(int argc, char **argv)
{
	example_args(argc, argv);
	pthread_spin_init(&lock, PTHREAD_PROCESS_PRIVATE);
	example_fork_join(worker);
	printf("pthread-spin: %ld units done\n", example_units);
	return 0;
}
