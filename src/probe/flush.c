/* The flush witness of the cache line (see flush.h). Costs about reps x 7 x trials x 0.4 us. */
#include "probe/flush.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/order.h"
#include "common/rng.h"

#define FLUSH_BUFFER ((size_t)256 << 10)
#define FLUSH_BLOCK ((size_t)1024)
#define FLUSH_MIN_D 8
#define FLUSH_MAX_D 512
#define FLUSH_NPOINTS 7 /* 8 .. 512 */
#define FLUSH_MAX_REPS 64
#define FLUSH_MAX_TRIALS 4096

#if defined(__x86_64__)
#include <x86intrin.h>

int probe_flush_available(void)
{
	return 1;
}

/* One trial: the line of p brought in (a load, finished before the flush by the fence), the line
 * of p + d flushed from every cache (finished by the second fence), then the reload of p timed.
 * lfence keeps the counter reads from moving past the load; rdtscp waits for it to complete. */
static uint64_t flush_trial(volatile char *p, size_t d, uint64_t *sink)
{
	unsigned aux;
	*sink += *(volatile uint64_t *)p;
	_mm_mfence();
	_mm_clflush((const void *)(p + d));
	_mm_mfence();
	_mm_lfence();
	uint64_t t0 = __rdtsc();
	_mm_lfence();
	*sink += *(volatile uint64_t *)p;
	uint64_t t1 = __rdtscp(&aux);
	_mm_lfence();
	return t1 - t0;
}
#else
int probe_flush_available(void)
{
	return 0;
}

static uint64_t flush_trial(volatile char *p, size_t d, uint64_t *sink)
{
	(void)p;
	(void)d;
	(void)sink;
	return 0;
}
#endif

int probe_flush_run(int reps, int trials, double tsc_ghz, uint64_t seed, volatile int *stop, struct probe_curve *out,
		    struct as_error *err)
{
	if (!probe_flush_available())
		return as_error_set(err, -ENOTSUP,
				    "the flush witness needs a user-space cache-line flush (x86-64 clflush), which this build "
				    "does not have");
	if (reps < 1 || reps > FLUSH_MAX_REPS || trials < 16 || trials > FLUSH_MAX_TRIALS || !(tsc_ghz > 0))
		return as_error_set(err, -EINVAL,
				    "flush witness: reps must be 1..%d, trials 16..%d and the time-stamp counter's rate known",
				    FLUSH_MAX_REPS, FLUSH_MAX_TRIALS);
	char *buf = aligned_alloc(4096, FLUSH_BUFFER);
	double *med = malloc((size_t)FLUSH_NPOINTS * FLUSH_MAX_REPS * sizeof(double));
	double *t = malloc((size_t)trials * sizeof(double));
	if (!buf || !med || !t) {
		free(buf);
		free(med);
		free(t);
		return as_error_set(err, -ENOMEM, "flush witness: out of memory");
	}
	memset(buf, 1, FLUSH_BUFFER);
	struct rng r;
	rng_init(&r, seed);
	uint64_t sink = 0;
	size_t blocks = FLUSH_BUFFER / FLUSH_BLOCK;
	int done = 0;
	for (; done < reps && !(stop && *stop); done++) {
		int k = 0;
		for (size_t d = FLUSH_MIN_D; d <= FLUSH_MAX_D; d *= 2, k++) {
			for (int i = 0; i < trials; i++) {
				volatile char *p = buf + (size_t)rng_below(&r, blocks) * FLUSH_BLOCK;
				t[i] = (double)flush_trial(p, d, &sink);
			}
			med[k * FLUSH_MAX_REPS + done] = order_median(t, (size_t)trials) / tsc_ghz;
		}
	}
	int rc = 0;
	for (int k = 0; done > 0 && k < FLUSH_NPOINTS && rc == 0; k++) {
		double *v = med + k * FLUSH_MAX_REPS;
		rc = probe_curve_add(out, (double)(FLUSH_MIN_D << k), order_kth(v, (size_t)done, 0), order_median(v, (size_t)done));
	}
	free(buf);
	free(med);
	free(t);
	(void)sink;
	return rc ? as_error_set(err, rc, "flush witness: out of memory") : 0;
}
