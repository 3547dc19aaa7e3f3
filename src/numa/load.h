/* The load generator (Hydralisk's gland, thesis §4.4.2): flows of pinned threads streaming from
 * memory of a chosen node with bench's kernels, run together, sampled every interval; each flow
 * alone first when there are several, for the cross-talk table. */
#ifndef ARCHSCOPE_NUMA_LOAD_H
#define ARCHSCOPE_NUMA_LOAD_H

#include <stddef.h>

#include "common/conditions.h"
#include "common/cpuset.h"
#include "common/error.h"
#include "numa/place.h"

#define NUMA_LOAD_MAX_SAMPLES 3600

/* One interval of one phase, as the sample callback sees it. */
struct numa_load_sample {
	int phase;                  /* flow k when flow k runs alone, -1 when all run together */
	double t_s;                 /* seconds since the phase started measuring */
	double gbs[NUMA_MAX_FLOWS]; /* per flow in this interval, real bytes; NAN when not running */
};

struct numa_load_opts {
	const struct numa_flow *flows;
	int n;
	const struct as_cpulist *cpus; /* per flow, from numa_flows_place */
	const char *kernel;            /* bench kernel, "triad" when NULL (as gland) */
	size_t bytes_per_thread;       /* all streams of one thread; 0: 256 MiB */
	double duration_s;             /* of each phase */
	double interval_s;             /* between samples (1 s as Hydralisk's display) */
	int alone;                     /* run each flow alone before all together (ignored for n = 1) */
	volatile int *stop;            /* set (by a signal): end the phase now, keep what was measured */
	void (*sample)(void *arg, const struct numa_load_sample *s); /* may be NULL */
	void *arg;
};

struct numa_load_result {
	char kernel[32];               /* "triad-avx512" */
	int write_allocate;
	size_t bytes_per_thread;
	int alone_run;                 /* the alone phases ran */
	double alone_gbs[NUMA_MAX_FLOWS];    /* whole phase, real bytes / s; NAN when not run */
	double together_gbs[NUMA_MAX_FLOWS];
	double together_s;             /* length of the measured together phase */
	int nsamples;                  /* of the together phase */
	int max_samples;               /* room in series */
	double *series;                /* [sample][flow], n per sample */
	double placed[NUMA_MAX_FLOWS]; /* fraction of thread 0's pages found on the flow's DST */
	int interrupted;
	struct conditions alone_cond[NUMA_MAX_FLOWS]; /* what each alone phase ran in (common/conditions.h) */
	struct conditions together_cond;              /* ... and the together phase */
};

int numa_load_run(const struct numa_load_opts *o, struct numa_load_result *r, struct as_error *err);
void numa_load_result_release(struct numa_load_result *r);

#endif
