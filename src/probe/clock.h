/* The clock probe: the core clock, measured. A chain of dependent integer adds retires one add per
 * core cycle on every out-of-order core we know of, so adds per ns is the core frequency in GHz.
 * The TSC rate is measured beside it (TSC ticks are not core cycles). */
#ifndef ARCHSCOPE_PROBE_CLOCK_H
#define ARCHSCOPE_PROBE_CLOCK_H

#include <stdint.h>

#include "probe/probe.h"

struct clock_result {
	double ghz;          /* best (fastest) repetition: the unthrottled clock */
	double ghz_median;   /* median repetition, to show the spread */
	uint64_t adds;       /* dependent adds per repetition */
	int reps;
	const char *method;
};

/* Runs the dependent add chain `adds` times (rounded up to a multiple of 100); returns elapsed ns. */
uint64_t clock_add_chain_ns(uint64_t adds);

/* Measures the core clock on the calling thread (pin it first): 20 x reps chains of about 0.5 ms
 * (about reps x 10 ms in all); the fastest is the clock, the median shows the spread. */
void clock_measure(struct clock_result *res, int reps);

/* The clock right now, for a window around one measurement: the fastest of three add chains of
 * about 0.3 ms each (about 1 ms in all), after a short warm-up. Cycles that a probe reports come
 * from brackets like this one taken before and after its own measurement, so a guest whose clock
 * moves between probes (seen: 2.65 to 3.55 GHz) cannot turn 1 cycle into 0.84. */
double clock_window_ghz(void);

/* The clock for a measurement between two brackets: their mean, or the faster one when they are
 * more than 10 % apart (a bracket the scheduler interrupted reads slow; a clock that really moved
 * that much in one measurement is rarer). 0 when either is 0. */
double clock_window_between(double before_ghz, double after_ghz);

/* The clock on the calling thread (pinned to env->cpu by the caller): 15 repetitions of about
 * 10 ms (5 with env->quick), the TSC calibrated beside it. Sets the record's clock answer
 * (os_reported: /proc/cpuinfo's 'cpu MHz' in GHz), tsc_ghz and the evidence (the median
 * repetition, the adds per repetition, the repetitions, the CPU), the group present. Confidence
 * from the agreement of the fastest and the median repetition. Records env->clock_ghz and
 * env->tsc_ghz. Cannot fail. */
void probe_clock_find(struct probe_env *env, struct machine_probes *rec);

#endif
