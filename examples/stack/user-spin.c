/* A spin lock written by hand (a ticket polled with PAUSE): no wrapper sees the waiting,
 * only sampling does (spinning: user_spin). */
#include "common.h"

static unsigned next_ticket, now_serving;
static uint64_t shared;

/* A ticket lock: fair (first come, first served), so the waiting shows as spinning, not as one
 * thread finishing early. */
static void spin_lock(void)
{
	unsigned my = __atomic_fetch_add(&next_ticket, 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&now_serving, __ATOMIC_ACQUIRE) != my)
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#elif defined(__aarch64__)
		__asm__ volatile("yield");
#else
		;
#endif
}

static void spin_unlock(void)
{
	__atomic_store_n(&now_serving, now_serving + 1, __ATOMIC_RELEASE);
}

static void *worker(void *arg)
{
	long id = (long)arg;
	for (long u = id; u < example_units; u += example_threads) {
		spin_lock();
		shared = example_work(shared + (uint64_t)u);
		spin_unlock();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	example_args(argc, argv);
	example_fork_join(worker);
	printf("user-spin: %ld units done\n", example_units);
	return 0;
}
