/* Lock-heavy: many short critical sections under one mutex with a little work between them, so
 * that most lock calls contend: the worst case for the preload library's overhead
 * (bench/stack-overhead.sh). UNITS x 1000 lock/unlock pairs in all. */
#include "common.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t counter;

static void *worker(void *arg)
{
	long id = (long)arg;
	uint64_t x = (uint64_t)id;
	for (long u = id; u < example_units * 1000; u += example_threads) {
		pthread_mutex_lock(&lock);
		counter++;
		pthread_mutex_unlock(&lock);
		for (int i = 0; i < 50; i++) /* about 0.1 us outside the lock */
			x = x * 6364136223846793005u + 1u;
	}
	return (void *)(uintptr_t)(x & 1);
}

int main(int argc, char **argv)
{
	example_args(argc, argv);
	example_fork_join(worker);
	printf("lock-heavy: %llu increments\n", (unsigned long long)counter);
	return 0;
}
