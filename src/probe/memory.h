/* The memory-hierarchy probes (BlackjackBench §3.1.1-3.1.3, §3.2): each returns a curve of
 * latency per access against its control variable; src/analysis turns curves into answers.
 * Probes run on the calling thread, which the caller pins. */
#ifndef ARCHSCOPE_PROBE_MEMORY_H
#define ARCHSCOPE_PROBE_MEMORY_H

#include <stddef.h>
#include <stdint.h>

#include "common/buffer.h"
#include "common/error.h"
#include "probe/probe.h"

struct probe_curve {
	size_t n, cap;
	double *x;          /* control variable (bytes, count, ...) */
	double *min_ns;     /* per access, fastest repetition */
	double *median_ns;  /* per access, median repetition */
};

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

/* A malloc'd monotone copy (steps_monotone) of the curve's minima; NULL when out of memory. */
double *probe_curve_monotone(const struct probe_curve *c);

/* Repetitions per point and the minimum total time of a point's repetitions. */
int probe_reps(const struct probe_opts *o);
uint64_t probe_point_ns(const struct probe_opts *o);

/* §3.1.1: average latency of access pairs D bytes apart at random places, D = 16..512 B. */
int probe_line_run(const struct probe_opts *o, struct probe_curve *out, struct as_error *err);

/* §3.1.2: latency of a page-segmented random chase against buffer size, from 1 KiB until the
 * curve has been flat for over an octave at >= 4x the last step (capped at max_bytes). */
int probe_caches_run(const struct probe_opts *o, size_t line, size_t max_bytes, struct probe_curve *out,
		     struct as_error *err);

/* §3.1.3: latency of K addresses level_bytes apart in several sets, K = 1..max_k; the sets are
 * spread so that even K = 1 overflows a lower level of lower_bytes. */
int probe_assoc_run(const struct probe_opts *o, size_t level_bytes, size_t lower_bytes, size_t line,
		    int max_k, struct probe_curve *out, struct as_error *err);

/* §3.2, page size: pairs of accesses s bytes apart at random s-aligned places far apart, s from
 * 4 lines to 256 KiB; the second access misses the TLB once s exceeds the page. */
int probe_tlb_page_run(const struct probe_opts *o, size_t line, struct probe_curve *out, struct as_error *err);
/* §3.2, entries: N pages touched at a different cache line each, in random order; `control`
 * gets the same N lines packed into few pages, so that control - out isolates the TLB. */
int probe_tlb_entries_run(const struct probe_opts *o, size_t page, size_t line, size_t max_pages,
			  struct probe_curve *out, struct probe_curve *control, struct as_error *err);

/* Sizes m x 2^k for m in {1, 1.25, 1.5, 1.75} (four per octave; two with quick: 1 and 1.5),
 * rounded to a multiple of `align`, from lo up to hi. Returns the count written (<= max). */
size_t probe_size_series(size_t lo, size_t hi, size_t align, int quick, size_t *out, size_t max);

#endif
