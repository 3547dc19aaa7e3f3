/* Core clock by a dependent add chain (see clock.h). */
#include "common/clock.h"

#include <stdlib.h>

#include "common/timer.h"

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
	/* Calibrate to about 10 ms per repetition. */
	uint64_t adds = 1000000;
	clock_add_chain_ns(adds); /* warm-up: lets the core leave a low-power state */
	for (;;) {
		uint64_t ns = clock_add_chain_ns(adds);
		if (ns >= 10000000ull || adds > (1ull << 40))
			break;
		adds = ns < 100000 ? adds * 10 : adds * 10000000ull / ns + 100;
	}
	double *ghz = malloc(sizeof(double) * (size_t)reps);
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
