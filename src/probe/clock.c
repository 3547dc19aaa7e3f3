/* The clock probe (see clock.h): the core clock by a dependent add chain, the TSC rate beside it. */
#include "probe/clock.h"

#include <math.h>
#include <stdlib.h>

#include "common/timer.h"
#include "topo/cpuinfo.h"

#define ADD10 "addq %2, %0\n\t" "addq %2, %0\n\t" "addq %2, %0\n\t" "addq %2, %0\n\t" \
              "addq %2, %0\n\t" "addq %2, %0\n\t" "addq %2, %0\n\t" "addq %2, %0\n\t" \
              "addq %2, %0\n\t" "addq %2, %0\n\t"

uint64_t clock_add_chain_ns(uint64_t adds)
{
	uint64_t loops = (adds + 99) / 100;
	uint64_t x = 0;
	uint64_t t0 = timer_now_ns();
#if defined(__x86_64__)
	/* 100 register-register adds on one register per iteration; the loop counter lives on
	 * another port and overlaps with the chain, so the chain's latency alone sets the time.
	 * Not add-immediate: Golden Cove and later fold chains of immediate adds at rename. */
	uint64_t one = 1;
	__asm__ volatile(
		"1:\n\t"
		ADD10 ADD10 ADD10 ADD10 ADD10 ADD10 ADD10 ADD10 ADD10 ADD10
		"decq %1\n\t"
		"jnz 1b\n\t"
		: "+r"(x), "+r"(loops)
		: "r"(one)
		: "cc");
#else
	for (uint64_t i = 0; i < loops * 100; i++) {
		x += 1;
		__asm__ volatile("" : "+r"(x));
	}
#endif
	uint64_t t1 = timer_now_ns();
	__asm__ volatile("" : : "r"(x));
	return t1 - t0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void clock_measure(struct clock_result *res, int reps)
{
	if (reps < 1)
		reps = 1;
	/* Each asked-for repetition of about 10 ms is run as 20 of about 0.5 ms: on a CPU shared with
	 * another process (time slices of 4 ms at HZ=250) every 10 ms chain is cut and reads a slow
	 * clock; short chains fit between the slices (bench/results/design-measurements.md,
	 * short-chains). */
	reps *= 20;
	uint64_t adds = 100000;
	clock_add_chain_ns(adds * 20); /* warm-up: lets the core leave a low-power state */
	for (;;) {
		uint64_t ns = clock_add_chain_ns(adds);
		if (ns >= 500000ull || adds > (1ull << 40))
			break;
		adds = ns < 5000 ? adds * 10 : adds * 500000ull / ns + 100;
	}
	double *ghz = malloc(sizeof(double) * (size_t)reps);
	if (!ghz) {
		*res = (struct clock_result){ 0 };
		return;
	}
	for (int i = 0; i < reps; i++) {
		uint64_t ns = clock_add_chain_ns(adds);
		ghz[i] = ns ? (double)((adds + 99) / 100 * 100) / (double)ns : 0.0;
	}
	qsort(ghz, (size_t)reps, sizeof(double), cmp_double);
	res->ghz = ghz[reps - 1];
	res->ghz_median = ghz[reps / 2];
	res->adds = (adds + 99) / 100 * 100;
	res->reps = reps;
	res->method = "dependent 64-bit integer add chain, 1 add per core cycle; fastest of the repetitions";
	free(ghz);
}

double clock_window_ghz(void)
{
	uint64_t adds = 1000000, best = 0;
	clock_add_chain_ns(adds / 4);
	for (int i = 0; i < 3; i++) {
		uint64_t ns = clock_add_chain_ns(adds);
		if (ns && (!best || ns < best))
			best = ns;
	}
	return best ? (double)adds / (double)best : 0;
}

double clock_window_between(double before_ghz, double after_ghz)
{
	if (!(before_ghz > 0) || !(after_ghz > 0))
		return 0;
	double hi = before_ghz > after_ghz ? before_ghz : after_ghz, lo = before_ghz + after_ghz - hi;
	return hi - lo > 0.1 * hi ? hi : 0.5 * (before_ghz + after_ghz);
}

void probe_clock_find(struct probe_env *env, struct machine_probes *rec)
{
	struct clock_result cr;
	clock_measure(&cr, env->quick ? 5 : 15);
	env->tsc_ghz = timer_tsc_calibrate_ghz(env->quick ? 10 : 30);
	env->clock_ghz = cr.ghz;
	char mhz_text[64];
	double mhz = topo_cpuinfo("cpu MHz", mhz_text, sizeof(mhz_text)) == 0 ? atof(mhz_text) : 0;
	/* Confidence: agreement of the fastest and the median repetition. */
	double spread = cr.ghz > 0 ? (cr.ghz - cr.ghz_median) / cr.ghz : 1;
	rec->have[MP_CLOCK] = MP_HAVE_YES;
	probe_answer_clear(&rec->clock);
	probe_answer_set(&rec->clock, cr.ghz, spread < 0.01 ? 0.95 : spread < 0.05 ? 0.7 : 0.4, cr.method);
	rec->clock.os_reported = mhz > 0 ? mhz / 1000.0 : NAN;
	rec->tsc_ghz = env->tsc_ghz > 0 ? env->tsc_ghz : NAN;
	rec->clock_ev.median_ghz = cr.ghz_median;
	rec->clock_ev.adds = (long long)cr.adds;
	rec->clock_ev.repetitions = cr.reps;
	rec->clock_ev.cpu = env->cpu;
}
