/* Spinning that no wrapper sees (a hand-written spin lock, an OpenMP runtime's busy wait), found
 * without hardware counters: every thread of every process of the program is sampled on the
 * software task clock (perf_event_open, no root needed at perf_event_paranoid <= 2); after the run
 * a sample counts as spinning when its code (read from the binary its process had mapped there)
 * is a spin loop: a spin-wait hint (x86 PAUSE, arm64 YIELD/WFE/ISB) near it, or a PAUSE that jumps
 * back to it. A thread's spin time is its CPU time x the share of its samples in spin loops (in
 * time, not in samples). See docs/archscope-stack.md for the method and its false-positive rate. */
#ifndef ARCHSCOPE_SCALE_SPIN_H
#define ARCHSCOPE_SCALE_SPIN_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "scale/record.h"

/* The measurements behind these constants: bench/results/stack-spin-sampling-kvm-xeon-6-207.txt. */
#define SPIN_PERIOD_NS 3236068u /* the shortest base period: one sample per 3.24 ms of a thread's CPU time.
				 * Not a multiple or simple fraction of a scheduler tick (1, 3.33, 4, 10
				 * ms), where the samples of threads that spin whole time slices fall at one
				 * phase of the slice */
/* What a sample costs depends on the machine (the timer interrupt, the sample's write and the
 * timer set again: a VM exit each in a guest), so the period is chosen per machine: the sample's
 * cost is measured (scale_spin_sample_cost_ns) and the base period is the shortest step
 * SPIN_PERIOD_NS x {1, 1.5, 2, 2.5, 3, 4} at which sampling costs at most SPIN_COST_BUDGET of the
 * program's CPU time (4 x at most: 12.9 ms). The steps keep the period an irrational number of ms,
 * so never a tick's multiple. Fewer samples only widen the spin share's statistical error
 * (binomial), which the output gives. */
#define SPIN_COST_BUDGET 0.005
#define SPIN_PERIOD_STEPS { 1.0, 1.5, 2.0, 2.5, 3.0, 4.0 }
/* The base period for a sample cost of cost_ns (NaN or <= 0: SPIN_PERIOD_NS). Pure; unit-tested. */
uint32_t scale_spin_base_period_ns(double cost_ns);
/* Measures what one sample costs this thread, in ns of its CPU time: a busy loop of ~4 ms timed
 * on the thread's CPU clock without and with a task-clock sampling event at 250 us (16 samples),
 * twelve pairs, the median of the pairs' differences per sample (~100 ms in all; the median of
 * pairs, because the least of each kind is far noisier in a guest). NaN when perf_event_open is
 * refused. */
double scale_spin_sample_cost_ns(void);
#define SPIN_LOOP_BYTES 64     /* samples this close are one spin site */
#define SPIN_HINT_WINDOW 24    /* bytes either side of a sample searched for the hint */
#define SPIN_SCAN_BYTES 128    /* bytes either side searched for an out-of-line hint (below) */
#define SPIN_HEAD_BYTES 16     /* a loop head: the poll's load, compare and branch */

/* One sample: thread, instruction pointer, and whether the code around it holds a spin hint. */
struct spin_sample {
	int pid, tid;
	uint64_t ip, time_ns;
	uint32_t period_ns; /* the CPU time this sample stands for: its CPU's period */
	int hint;           /* 1 hint, 0 none, -1 code unreadable */
};

/* The sampling period of the events on CPU `cpu`: base_ns x (1 + SPIN_PERIOD_SPREAD x
 * frac(cpu x 0.618...)), a different period on each CPU. With one period everywhere, two threads
 * that run side by side on two CPUs are sampled at a fixed offset from each other for the whole
 * run, and a sample's own cost makes the other thread spin if it waits for the sampled one: at
 * one offset every sample of the other thread falls in that spinning, at most offsets none does,
 * so single runs spread far more than independent samples would. Different periods move the
 * offset through every value many times a second. Pure; unit-tested. */
#define SPIN_PERIOD_SPREAD 0.125
uint32_t scale_spin_period_ns(uint32_t base_ns, int cpu);

/* Does the code in bytes[0..n) hold a spin-wait hint instruction? (pure; unit-tested) */
int scale_spin_code_has_hint(const uint8_t *bytes, size_t n);
/* Is the instruction at bytes[at] part of a spin-wait loop? Yes when a hint lies within
 * SPIN_HINT_WINDOW bytes of it, or (x86) when a PAUSE anywhere in bytes[0..n) is followed by a
 * jump (jmp/jcc, rel8 or rel32) back to a loop head at most SPIN_HEAD_BYTES before `at`: compilers
 * put the PAUSE of `while (*flag) pause();` out of line, after the function's hot code, and the
 * samples that land on the poll's load and branch are then too far from it for the window.
 * Pure; unit-tested. */
int scale_spin_code_is_spin(const uint8_t *bytes, size_t n, size_t at);

/* Marks which samples are spinning: those whose code is a spin loop (hint 1, from
 * scale_spin_code_is_spin). spin[i] = 1 or 0. Samples are sorted by (tid, time) first. Pure;
 * unit-tested. */
void scale_spin_classify(struct spin_sample *s, size_t n, uint8_t *spin);

/* A task of the program that ended (PERF_RECORD_EXIT): its end comes after its exit work. */
struct spin_exit {
	int pid, tid;
	uint64_t time_ns;
};
#define SPIN_EXIT_TAIL_MAX_S 1.0 /* a record's end further from its task's end is not its exit */

struct scale_spin;
/* Starts sampling this process and the children it starts from now on (inherited events on
 * every CPU, at scale_spin_period_ns(base_ns, cpu)), with a thread draining the buffers. -errno
 * when perf_event_open is refused. */
int scale_spin_start(struct scale_spin **out, uint32_t base_ns, struct as_error *err);
/* Stops sampling (the child has exited) and keeps the samples. */
void scale_spin_stop(struct scale_spin *s);
/* Extends each thread of rec to its task's end, where that came after the record's (the exit
 * work after the library's last word: unmapping the process's memory, closing its files), the
 * tail counted as CPU time. The record's and its processes' ends move with them. Call before
 * reading the span off rec. */
void scale_spin_exits(const struct scale_spin *s, struct scale_record *rec);
/* The same for the ends ex[0..n) (pure; unit-tested). */
void scale_spin_exits_apply(const struct spin_exit *ex, size_t n, struct scale_record *rec);
/* Sets each thread's spin time (spin_s: its CPU time x the share of its samples in spin loops)
 * and, where an OpenMP runtime's waits were timed, the CPU time in that runtime's code (rt_spin_s:
 * the waits' spin phase), and adds the spinning code as call sites (prim PRIM_COUNT: "user_spin").
 * Spin loops inside waits a wrapper times whole are left out (libc: pthread_spin_lock; MPI's
 * libraries where the thread's MPI calls were timed). *spin and *all: the samples counted. */
void scale_spin_assign(struct scale_spin *s, struct scale_record *rec, double *spin, double *all);
void scale_spin_free(struct scale_spin *s);

#endif
