/* Clocks for measurement: a monotonic wall clock in ns (clock_gettime) and, on x86-64, the time-stamp
 * counter calibrated against it. TSC ticks are *not* core cycles; see clock.h for the core clock. */
#ifndef ARCHSCOPE_COMMON_TIMER_H
#define ARCHSCOPE_COMMON_TIMER_H

#include <stdint.h>

/* CLOCK_MONOTONIC_RAW in ns; about 20-30 ns per call through the vDSO. */
uint64_t timer_now_ns(void);

/* Raw time-stamp counter (0 where the architecture has none). */
uint64_t timer_tsc(void);

/* TSC frequency in GHz measured against CLOCK_MONOTONIC_RAW over about window_ms;
 * returns 0 where there is no TSC. */
double timer_tsc_calibrate_ghz(unsigned window_ms);

/* Busy-wait for at least ns nanoseconds. */
void timer_spin_ns(uint64_t ns);

#endif
