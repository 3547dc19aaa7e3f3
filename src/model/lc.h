/* Layer conditions (Kerncraft paper §2.4.2): per array, the offsets of its accesses sorted along
 * the direction the innermost loop moves; the gaps between neighbours are reuse distances, the
 * leading access gets infinity. For each distance t the cache needs
 *     C_req = sum(L <= t) + t * count(L > t)   elements,
 * and then gives count(L <= t) hits and count(L > t) misses per iteration. A last condition holds
 * when every array fits. Symbolic in the kernel's constants, numeric at the bound sizes. */
#ifndef ARCHSCOPE_MODEL_LC_H
#define ARCHSCOPE_MODEL_LC_H

#include "model/predict.h"

#define LC_MAX_ENTRIES KERNEL_MAX_ACCESSES
#define LC_MAX_COND 64

/* One access in the reuse list. */
struct lc_entry {
	int array;
	int inf;            /* leading access of its array: nothing before it is reused */
	int sym;            /* dist has a symbolic form */
	struct poly dist;   /* elements */
	int64_t dist_val;
	int write_only;     /* only written at this offset: no-write-allocate caches do not load it */
	double lines;       /* cache lines per cache line of work when this access misses */
};

struct lc_condition {
	int all_fit;        /* every array fits */
	int64_t t;          /* the reuse distance, elements (-1 for all_fit) */
	int sym;            /* req has a symbolic form */
	struct poly req;    /* bytes */
	double req_bytes;   /* at the bound sizes */
	int hits, misses, evicts;
	double lines_in, lines_out;  /* before the level's write-allocate rule */
	double lines_in_nowa;        /* without the write-only misses */
};

struct lc_analysis {
	int nentries;
	struct lc_entry e[LC_MAX_ENTRIES];
	int zero_hits;      /* accesses that hit always (same element every iteration) */
	int reads, writes;  /* array accesses per iteration, as written in the kernel */
	int ncond;
	struct lc_condition cond[LC_MAX_COND]; /* by increasing hits; cond[0] = nothing reused */
	double iterations_per_cl;
};

/* Builds the reuse list and the conditions. Fails (with a message) when a kernel is outside what
 * layer conditions handle: accesses to one array that move differently. */
int lc_analyse(const struct kernel *k, const struct kbound *b, double cl_bytes, struct lc_analysis *a, struct as_error *err);

/* The condition that holds in a cache of size_bytes: the one with the most hits that fits. */
int lc_active(const struct lc_analysis *a, double size_bytes);

/* Largest value of constant `sym` (the others as bound) for which condition c fits in size_bytes:
 * 0 if it never fits, -1 if it always fits (c does not depend on sym). */
int64_t lc_transition(const struct lc_analysis *a, int c, const struct kbound *b, int sym, double size_bytes);

/* Fills a cache_traffic for the machine's cache levels with `cores` cores in use. */
void lc_predict(const struct lc_analysis *a, const struct machine *m, int cores, struct cache_traffic *out);

/* How lc_predict_opts treats the last-level cache (LLC), whose effective size a probe measures
 * with the host's other tenants in it (the same Zen 5 guest gave 14 and 28 MiB in two runs). */
struct lc_llc {
	double band;   /* >= 1: the LLC's capacity is taken as uncertain, log-uniform in [size /
			* sqrt(band), size x sqrt(band)] (band 4: half to double the size); the traffic
			* is its average over that band, so a working set near the probed size moves
			* the prediction gradually, never a whole kernel at once. 1: a sharp transition
			* at the size (Kerncraft's layer conditions) */
	double scale;  /* the LLC's size is multiplied by this (1: as the file says); for the
			* sensitivity of a prediction to the probed size */
};

/* The index in m->level of the last level with a cache, or -1. */
int lc_llc_level(const struct machine *m);

/* lc_predict with the last-level cache treated as llc says (NULL: as lc_predict). */
void lc_predict_opts(const struct lc_analysis *a, const struct machine *m, int cores, const struct lc_llc *llc,
		     struct cache_traffic *out);

#endif
