/* What `archscope whatif` and the preload library share (libc only): the environment variable that
 * selects a run's mode, site and speedup, and the layout of the file both map MAP_SHARED, whose
 * global delay count and progress points every process of the program's tree reads and adds to
 * (fork keeps the mapping; an exec maps it again from the variable). */
#ifndef ARCHSCOPE_SCALE_PRELOAD_WHATIF_H
#define ARCHSCOPE_SCALE_PRELOAD_WHATIF_H

#include <stddef.h>
#include <stdint.h>

/* "MODE;SHM;PERIOD_NS;SPEEDUP;RANGES;PATH": MODE p (profile: sample where the threads run, written
 * to WHATIF_SAMPLES_PREFIX files in $ARCHSCOPE_STACK_DIR) or d (delay: virtual speedup of the
 * site); SHM the shared file's path (no ';'); PERIOD_NS the sampling period in ns of a thread's CPU
 * time; SPEEDUP the site's virtual speedup, 0 to 1; RANGES the site as file offsets in PATH,
 * "lo-hi,lo-hi" (hex, hi excluded; empty in profile mode); PATH the binary the site is in (last,
 * so it may hold any character but NUL). */
#define WHATIF_ENV "ARCHSCOPE_WHATIF"
#define WHATIF_SAMPLES_PREFIX "wif."
#define WHATIF_RANGES_MAX 64
#define WHATIF_POINTS_MAX 64
#define WHATIF_MAGIC 0x3166697461687761ull /* "awhatif1" */

/* Coz's coz_counter_t (coz.h): the program's COZ_* macros add 1 to count atomically. */
struct whatif_coz_counter {
	size_t count;
	size_t backoff; /* unused, as in Coz */
};

/* One progress point: Coz's counter first, so a pointer to it is one to the counter. */
struct whatif_point {
	struct whatif_coz_counter c;
	int type; /* COZ_COUNTER_TYPE_THROUGHPUT 1, BEGIN 2, END 3 (coz.h) */
	int used; /* 2 once name and type are written */
	char name[104];
};

struct whatif_shared {
	uint64_t magic;
	uint64_t delay_ns;      /* the global delay count: virtual speedup inserted, ns */
	uint64_t samples;       /* samples taken, every thread of every process */
	uint64_t site_samples;  /* of them in the site */
	uint64_t paused_ns;     /* pauses the threads really made (ns; over delay_ns x threads: slack) */
	uint64_t inflight_sum;  /* latency points: sum over samples of BEGIN - END visits in flight */
	uint64_t processes;     /* process images that mapped the file */
	int lock;               /* taken while a progress point is added */
	int npoints;
	struct whatif_point points[WHATIF_POINTS_MAX];
};

#endif
