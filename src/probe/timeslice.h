/* The timeslice probe (BlackjackBench §3.6): with twice as many busy threads as CPUs, a thread
 * sees gaps in its own timeline while another runs; the gap that holds the most lost time is the
 * scheduler's time slice (the many short interruptions a hypervisor inserts outnumber the slices
 * but lose little time). Threads are not pinned: the OS places them. A second witness, the
 * kernel's own schedstat of two busy threads pinned to one CPU (probe/schedstat.h), stands beside
 * the answer. */
#ifndef ARCHSCOPE_PROBE_TIMESLICE_H
#define ARCHSCOPE_PROBE_TIMESLICE_H

#include <stddef.h>

#include "analysis/dist.h"
#include "common/error.h"
#include "probe/memory.h"
#include "probe/probe.h"

#define TIMESLICE_NQUANTILES 5   /* p10, p25, p50, p75, p90: timeslice_ev.quantile_ms */

struct machine_probes;

/* What the probe works on, beside the answers and evidence it records (machine/probes.h:
 * timeslice, schedstat, timeslice_ev). */
struct probe_timeslice_result {
	/* Measured (probe_timeslice_run). */
	double *gaps_us;             /* every gap above the threshold, sorted */
	size_t n;
	int threads;
	double run_s;                /* how long each thread ran */
	double threshold_us;
	int cpus;                    /* the CPUs the threads ran on (env->allowed) */
	/* From the gaps (probe_timeslice_analyze). */
	int have_mode;
	struct dist_mode mode;       /* the modal bin, in us (when have_mode) */
};

void probe_timeslice_result_init(struct probe_timeslice_result *r);
void probe_timeslice_result_release(struct probe_timeslice_result *r);

/* `threads` unpinned threads (twice the CPUs) loop on a timestamp and record every gap above
 * 20 us, for run_s seconds, into the measured fields of r (initialised; gaps it held are
 * dropped). */
int probe_timeslice_run(const struct probe_opts *o, int threads, double run_s, struct probe_timeslice_result *r,
			struct as_error *err);

/* Widens the calling thread's CPU set to env->allowed, runs 2 x allowed threads for 2 s (0.5 s
 * with env->quick), pins the thread back to env->cpu, measures the kernel's slice (rec->schedstat)
 * and answers into rec. *work is initialised here; release it also after an error (rec is then
 * left as it was). Returns 0 or a negative errno (err says what failed). */
int probe_timeslice_find(struct probe_env *env, probe_progress_fn *progress, struct probe_timeslice_result *work,
			 struct machine_probes *rec, struct as_error *err);

/* The statistics of probe_timeslice_find on work->gaps_us (sorted; recorded gaps in tests) into
 * rec (rec->timeslice and its evidence): the time-weighted mode on a log histogram of 20 bins per
 * decade, as the median of the modal bin's gaps, with a confidence from its share of the lost time
 * and its count; the quantiles; and, when rec->schedstat holds a value, the comparison with it
 * (more than 25 % apart: the kernel's stands, confidence x 0.75, the gaps' answer in the
 * reason). */
void probe_timeslice_analyze(struct probe_timeslice_result *work, struct machine_probes *rec);

#endif
