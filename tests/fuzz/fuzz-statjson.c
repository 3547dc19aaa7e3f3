/* libFuzzer target for the stat-result reader (`compare A.json B.json`): any bytes either fail with
 * a message or give events with names and per-run values, which then go through compare's
 * statistics (Welch's t, Hedges' g, the ratio interval, Benjamini-Hochberg) against each other.
 * Built and run by tests/fuzz/run.sh. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "analysis/stats.h"
#include "measure/stat-json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct measure_stat_json s;
	struct as_error err = { 0 };
	if (measure_stat_json_parse(&s, (const char *)data, size, "fuzz.json", &err) != 0) {
		if (!err.msg[0] || s.n || s.ev)
			abort(); /* a failure must say why and leave nothing behind */
		return 0;
	}
	double *p = malloc((s.n + 1) * sizeof(double)), *q = malloc((s.n + 1) * sizeof(double));
	if (!p || !q)
		abort();
	for (size_t i = 0; i < s.n; i++) {
		const struct measure_stat_json_event *e = &s.ev[i], *f = &s.ev[(i + 1) % s.n];
		if (!e->name || !e->name[0] || measure_stat_json_find(&s, e->name) > e)
			abort();
		for (size_t k = 0; k < e->n; k++)
			if (isinf(e->values[k]))
				abort(); /* finite or NAN (not counted) */
		struct stats_sample a, b;
		struct stats_welch w;
		double lo, hi;
		stats_sample(e->values, e->n, &a);
		stats_sample(f->values, f->n, &b);
		stats_welch_t(&a, &b, &w);
		stats_hedges_g(&a, &b);
		stats_ratio_ci(&a, &b, 0.95, &lo, &hi);
		p[i] = w.p;
	}
	stats_bh(p, s.n, q);
	free(p);
	free(q);
	measure_stat_json_release(&s);
	return 0;
}
