/* The core clock, measured: a chain of dependent integer adds retires one add per core cycle on
 * every out-of-order core we know of, so adds per ns is the core frequency in GHz. */
#ifndef ARCHSCOPE_COMMON_CLOCK_H
#define ARCHSCOPE_COMMON_CLOCK_H

#include <stdint.h>

struct clock_result {
	double ghz;          /* best (fastest) repetition: the unthrottled clock */
	double ghz_median;   /* median repetition, to show the spread */
	uint64_t adds;       /* dependent adds per repetition */
	int reps;
	const char *method;
};

/* Runs the dependent add chain `adds` times (rounded up to a multiple of 100); returns elapsed ns. */
uint64_t clock_add_chain_ns(uint64_t adds);

/* Measures the core clock on the calling thread (pin it first); about reps x 10 ms. */
void clock_measure(struct clock_result *res, int reps);

#endif
