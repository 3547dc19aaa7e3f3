/* Monotonic and TSC clocks (see timer.h). */
#include "common/timer.h"

#include <time.h>

uint64_t timer_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t timer_tsc(void)
{
#if defined(__x86_64__)
	unsigned lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
#else
	return 0;
#endif
}

double timer_tsc_calibrate_ghz(unsigned window_ms)
{
	if (timer_tsc() == 0)
		return 0.0;
	/* Best of three windows: an interruption only lengthens a window's ns side by a little,
	 * but the ratio of two long intervals is what counts, so take the median-free minimum
	 * deviation by keeping the window whose endpoints were read fastest. */
	double best = 0.0;
	uint64_t best_skew = UINT64_MAX;
	for (int rep = 0; rep < 3; rep++) {
		uint64_t t0a = timer_now_ns(), c0 = timer_tsc(), t0b = timer_now_ns();
		uint64_t target = t0a + (uint64_t)window_ms * 1000000ull;
		while (timer_now_ns() < target)
			;
		uint64_t t1a = timer_now_ns(), c1 = timer_tsc(), t1b = timer_now_ns();
		uint64_t skew = (t0b - t0a) + (t1b - t1a);
		double ns = (double)(t1a + t1b) / 2.0 - (double)(t0a + t0b) / 2.0;
		if (skew < best_skew && ns > 0) {
			best_skew = skew;
			best = (double)(c1 - c0) / ns;
		}
	}
	return best;
}

void timer_spin_ns(uint64_t ns)
{
	uint64_t end = timer_now_ns() + ns;
	while (timer_now_ns() < end)
		;
}
