/* Two stat results (A, B) compared event by event, as `archscope compare` shows them: Welch's
 * t-test with exact p values, Benjamini–Hochberg q over every event compared, Hedges' g and the
 * ratio B/A with its 95 % interval, sorted by q then by size of change. Statistics only. */
#ifndef ARCHSCOPE_MEASURE_STAT_COMPARE_H
#define ARCHSCOPE_MEASURE_STAT_COMPARE_H

#include "analysis/stats.h"
#include "common/error.h"
#include "measure/stat-json.h"
#include "measure/stat-select.h"
#include "measure/stat.h"

/* compare's rules: an event is flagged when its q is below MEASURE_STAT_COMPARE_ALPHA (the false
 * discovery rate) and it changed by at least MEASURE_STAT_COMPARE_MIN_CHANGE_PCT (the defaults of
 * --alpha and --min-change); a side with fewer than MEASURE_STAT_COMPARE_FEW_RUNS runs gives a test
 * of little power (few_runs); the ratio's interval is MEASURE_STAT_COMPARE_LEVEL. */
#define MEASURE_STAT_COMPARE_ALPHA 0.05
#define MEASURE_STAT_COMPARE_MIN_CHANGE_PCT 1.0
#define MEASURE_STAT_COMPARE_FEW_RUNS 3
#define MEASURE_STAT_COMPARE_LEVEL 0.95

struct measure_stat_compare_event {
	const char *name, *unit;      /* point into A's result */
	struct stats_sample a, b;
	struct stats_welch w;
	double q;                     /* Benjamini–Hochberg over every event compared; NaN: no test */
	double g;                     /* Hedges' g of B against A */
	double ratio, lo, hi;         /* mean B / mean A and its 95 % interval */
	int significant;              /* q < alpha and changed by at least min_change_pct */
};

struct measure_stat_compare {
	struct measure_stat_compare_event *ev; /* sorted by q (NaN last), then by |log ratio|, then by name */
	int n;
	int tests;                    /* events with a p value (stats_bh's m) */
	int few_runs;                 /* some event has fewer than MEASURE_STAT_COMPARE_FEW_RUNS runs on a side */
	char only_a[1024], only_b[1024]; /* the events of one side only, "a, b, c" (cut when long) */
};

/* Compares every event of a that b has too (only those named in only, when it names any): alpha is
 * the false discovery rate below which q flags an event, min_change_pct the change (%) it needs
 * too. 0, or -ENOMEM with err filled (c is then empty). The names point into a. */
int measure_stat_compare_run(struct measure_stat_compare *c, const struct measure_stat_json *a,
			     const struct measure_stat_json *b, const struct stat_select *only, double alpha,
			     double min_change_pct, struct as_error *err);
void measure_stat_compare_release(struct measure_stat_compare *c);

/* A stat measurement as compare reads a file: each event's name, unit and per-run values (NaN
 * where not counted). 0, or -errno with err filled (j is then empty). */
int measure_stat_json_from_stat(struct measure_stat_json *j, const struct measure_stat *m, struct as_error *err);

#endif
