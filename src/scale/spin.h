/* Spinning that no wrapper sees (a hand-written spin lock, an OpenMP runtime's busy wait), found
 * without hardware counters: every thread of the program is sampled on the software task clock
 * (perf_event_open, no root needed at perf_event_paranoid <= 2), and a sample counts as spinning
 * when the thread is parked in a short loop (its neighbouring samples lie within SPIN_LOOP_BYTES of
 * it) whose code holds a spin-wait hint (x86 PAUSE, arm64 YIELD/WFE/ISB). See
 * docs/archscope-stack.md for the method and its false-positive rate. */
#ifndef ARCHSCOPE_SCALE_SPIN_H
#define ARCHSCOPE_SCALE_SPIN_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "scale/record.h"

#define SPIN_PERIOD_NS 2000000u /* one sample per 2 ms of a thread's CPU time: at 0.5 ms the timer
				 * interrupts cost ~5 % in a KVM guest (bench/stack-overhead.sh) */
#define SPIN_LOOP_BYTES 64     /* a "short loop": consecutive samples this close */
#define SPIN_HINT_WINDOW 24    /* bytes either side of a sample searched for the hint */

/* One sample: thread, instruction pointer, and whether the code around it holds a spin hint. */
struct spin_sample {
	int pid, tid;
	uint64_t ip, time_ns;
	int hint; /* 1 hint, 0 none, -1 code unreadable */
};

/* Does the code in bytes[0..n) hold a spin-wait hint instruction? (pure; unit-tested) */
int scale_spin_code_has_hint(const uint8_t *bytes, size_t n);

/* Marks which samples are spinning: hint set and a neighbouring sample of the same thread (in
 * time order) within SPIN_LOOP_BYTES. spin[i] = 1 or 0. Samples are sorted by (tid, time) first.
 * Pure; unit-tested on synthetic and recorded samples. */
void scale_spin_classify(struct spin_sample *s, size_t n, uint8_t *spin);

struct scale_spin;
/* Starts sampling this process and the children it starts from now on (inherited events on
 * every CPU), with a thread draining the buffers. -errno when perf_event_open is refused. */
int scale_spin_start(struct scale_spin **out, struct as_error *err);
/* Stops sampling (the child has exited) and keeps the samples. */
void scale_spin_stop(struct scale_spin *s);
/* Adds each thread's spin time (spin_s) to the record's threads, and the spinning code as call
 * sites (prim PRIM_COUNT: "user_spin"), leaving out samples in libc (pthread_spin_lock, which its
 * wrapper already times). *spin and *all: the samples counted. */
void scale_spin_assign(struct scale_spin *s, struct scale_record *rec, double *spin, double *all);
void scale_spin_free(struct scale_spin *s);

#endif
