/* Timing of the generated core micro-benchmarks (kernels.h): calibrated iteration counts and the
 * fastest of repeated runs, shared by the instr and registers probes. */
#include "probe/kernels.h"

#include <math.h>

#include "common/timer.h"

static volatile uint64_t kernel_sink;

double probe_kernel_ns(probe_kernel_fn fn, uint64_t n)
{
	uint64_t t0 = timer_now_ns();
	kernel_sink += fn(n);
	return (double)(timer_now_ns() - t0);
}

uint64_t probe_kernel_calibrate(probe_kernel_fn fn, double target_ns)
{
	uint64_t n = 64;
	probe_kernel_ns(fn, n); /* warm the code and the clock */
	double t = probe_kernel_ns(fn, n);
	while (t < 20000 && n < (1ull << 40)) {
		n *= 8;
		t = probe_kernel_ns(fn, n);
	}
	double want = (double)n * target_ns / (t > 1 ? t : 1);
	return want < 64 ? 64 : (uint64_t)want;
}

double probe_kernel_best_ns(probe_kernel_fn fn, uint64_t n, int reps)
{
	double best = INFINITY;
	for (int r = 0; r < reps; r++) {
		double t = probe_kernel_ns(fn, n);
		if (t < best)
			best = t;
	}
	return best;
}
