/* What the memory-hierarchy probes share (line.h, caches.h, assoc.h, tlb.h): the curve of latency
 * per access against a control variable, the run settings, and the timing of a linked set of
 * slots. Probes run on the calling thread, which the caller pins. */
#ifndef ARCHSCOPE_PROBE_MEMORY_H
#define ARCHSCOPE_PROBE_MEMORY_H

#include <stddef.h>
#include <stdint.h>

#include "common/buffer.h"
#include "common/error.h"
#include "common/rng.h"
#include "probe/chase.h"
#include "probe/probe.h"

struct probe_curve {
	size_t n, cap;
	double *x;          /* control variable (bytes, count, ...) */
	double *min_ns;     /* per access, fastest repetition */
	double *median_ns;  /* per access, median repetition */
};

/* A zeroed curve is an empty one, as probe_curve_init leaves it. */
void probe_curve_init(struct probe_curve *c);
void probe_curve_release(struct probe_curve *c);
int probe_curve_add(struct probe_curve *c, double x, double min_ns, double median_ns);

/* Progress report before each measurement point (may be NULL where it is accepted). */
typedef void probe_progress_fn(void *ctx, const char *probe, const char *point, int done, int total);

struct probe_opts {
	int quick;
	uint64_t seed;
	volatile int *stop;      /* set by a signal handler: return what was measured so far */
	/* Called before each point; may be NULL. */
	probe_progress_fn *progress;
	void *progress_ctx;
	enum huge_policy huge;   /* page policy of cache probes (TLB probes always use 4 KiB) */
};

/* The run settings of a memory probe from its environment: quick, seed, the interrupt flag. */
struct probe_opts probe_opts_of(const struct probe_env *env, probe_progress_fn *progress, enum huge_policy huge);

/* Whether the run was interrupted (the stop flag is set), and the progress report, if any. */
int probe_opts_stopped(const struct probe_opts *o);
void probe_opts_report(const struct probe_opts *o, const char *probe, const char *point, int done, int total);

/* Links count slots at base + offset[k] into one cycle in that order and times the walk over it
 * (warm-up of min(2 passes, 2^18 steps), then probe_reps repetitions of probe_point_ns together);
 * adds the point x with its fastest and median time per access to out: 0, or -ENOMEM. */
int probe_slots_measure(const struct probe_opts *o, char *base, const size_t *offset, size_t count, double x,
			struct probe_curve *out);

/* A malloc'd monotone copy (steps_monotone) of the curve's minima; NULL when out of memory. */
double *probe_curve_monotone(const struct probe_curve *c);

/* A curve into the record's evidence (machine/probes.h): the points x[i], min[i] and median[i]
 * (median NULL: NAN), n of them (at most MACHINE_PROBES_MAX_POINTS), replacing what d held; and
 * the same from a curve. 0 or -ENOMEM (d then empty). */
int probe_points_copy(struct machine_probes_curve *d, const double *x, const double *min, const double *median,
		      size_t n);
int probe_points_of(struct machine_probes_curve *d, const struct probe_curve *c);

/* The step a probe found on a recorded curve, for people: the monotone latency (steps_monotone of
 * the minima) at the point whose x is `at` and at the next point, whose x goes to *next_x (may be
 * NULL). 0, or -1 when `at` is no point but the last of the curve, or out of memory. */
int probe_points_step(const struct machine_probes_curve *c, double at, double *before_ns, double *after_ns,
		      double *next_x);

/* Repetitions per point and the minimum total time of a point's repetitions. */
int probe_reps(const struct probe_opts *o);
uint64_t probe_point_ns(const struct probe_opts *o);

/* The number of points of the doubling sweep lo, 2 lo, 4 lo, ... <= hi (lo > 0). */
int probe_doublings(size_t lo, size_t hi);

/* For the pair probes (line, tlb): one malloc'd array (free it) whose first n entries are a
 * permutation of 0..n-1 drawn from r, followed by room for the 2n slot offsets of n pairs; NULL
 * when out of memory. */
size_t *probe_pairs_alloc(struct rng *r, size_t n);

/* Sizes m x 2^k for m in {1, 1.25, 1.5, 1.75} (four per octave; two with quick: 1 and 1.5),
 * rounded to a multiple of `align`, from lo up to hi. Returns the count written (<= max). */
size_t probe_size_series(size_t lo, size_t hi, size_t align, int quick, size_t *out, size_t max);

#endif
