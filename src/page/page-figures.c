/* The report page's figures (page-impl.h): the topology tree with measured sizes, latency against
 * working set, the other probe curves, bandwidth per level and thread count, c2c and NUMA heatmaps,
 * and the Roofline with the measured ceilings. Each reads the documents by their JSON names. */
#include "page/page-impl.h"
#include "report/svg.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/buffer.h"
#include "machine/result-bench.h"
#include "machine/result-host.h"
#include "machine/result-model.h"
#include "machine/result-numa.h"
#include "machine/result-topology.h"
#include "machine/schema.h"
#include "report/output.h"

/* --- topology ------------------------------------------------------------------------------ */

#define TOPO_MAX_CPUS 1024
#define TOPO_WORDS (TOPO_MAX_CPUS / 64)
#define TOPO_SHOWN 8 /* more children than this: the first few and "+N more" */

struct tgroup {
	int depth;                  /* 0 machine, 1 package, 2 NUMA node, 3.. caches from the top, core */
	uint64_t set[TOPO_WORDS];
	int count;
	char label[64], note[96], note2[96];
	const char *cls;
	int parent;
};

static int set_from(json_t *cpus, uint64_t *set)
{
	memset(set, 0, sizeof(uint64_t) * TOPO_WORDS);
	int n = 0;
	size_t i;
	json_t *v;
	json_array_foreach(cpus, i, v) {
		json_int_t c = json_integer_value(v);
		if (c >= 0 && c < TOPO_MAX_CPUS) {
			set[c / 64] |= 1ull << (c % 64);
			n++;
		}
	}
	return n;
}

static int set_within(const uint64_t *a, const uint64_t *b)
{
	for (int i = 0; i < TOPO_WORDS; i++)
		if (a[i] & ~b[i])
			return 0;
	return 1;
}

static void set_list(const uint64_t *set, char *buf, size_t len)
{
	size_t w = 0;
	buf[0] = '\0';
	for (int c = 0; c < TOPO_MAX_CPUS && w + 8 < len; c++)
		if (set[c / 64] >> (c % 64) & 1) {
			int e = c;
			while (e + 1 < TOPO_MAX_CPUS && (set[(e + 1) / 64] >> ((e + 1) % 64) & 1))
				e++;
			w += (size_t)snprintf(buf + w, len - w, "%s%d", w ? "," : "", c);
			if (e > c)
				w += (size_t)snprintf(buf + w, len - w, "%s%d", e > c + 1 ? "-" : ",", e);
			c = e;
		}
}

/* The measured size of cache level L (probe caches), NaN when not measured. */
static double measured_size(struct page_ctx *c, int level, double *conf)
{
	for (int i = 0; i < c->pr.ncaches; i++)
		if (c->pr.cache[i].level == level) {
			*conf = c->pr.cache[i].size.confidence;
			return c->pr.cache[i].size.value;
		}
	return NAN;
}

/* The boxes of a topology: groups, and room for the boxes and the "+N more" labels. */
struct tboxes {
	struct tgroup *g;
	int n;
	struct svg_box *pool;
	int used, max;
	char (*more)[48];
	int nmore;
};

/* Builds the children of box (group `parent`), recursively. */
static void topo_boxes(struct tboxes *t, int parent, struct svg_box *box)
{
	int nk = 0;
	for (int i = 0; i < t->n; i++)
		nk += t->g[i].parent == parent && i != parent;
	int shown = nk > TOPO_SHOWN ? TOPO_SHOWN - 2 : nk;
	int nbox = shown + (shown < nk);
	if (t->used + nbox > t->max)
		return;
	box->children = t->pool + t->used;
	box->nchildren = (size_t)nbox;
	t->used += nbox;
	int k = 0;
	for (int i = 0; i < t->n && k < shown; i++) {
		if (t->g[i].parent != parent || i == parent)
			continue;
		struct svg_box *b = &box->children[k++];
		struct tgroup *gr = &t->g[i];
		b->label = gr->label;
		b->note = gr->note[0] ? gr->note : NULL;
		b->note2 = gr->note2[0] ? gr->note2 : NULL;
		b->cls = gr->cls;
		topo_boxes(t, i, b);
	}
	if (shown < nk) {
		char *m = t->more[t->nmore++];
		snprintf(m, 48, "+%d more like these", nk - shown);
		box->children[shown].label = m;
		box->children[shown].cls = "box";
	}
}

void page_topology(struct page_ctx *c)
{
	FILE *f = c->f;
	fputs("<h2 id=\"topology\">Topology</h2>\n", f);
	json_t *r = output_doc_results(c->topo);
	json_t *cpus = schema_get(&topology_result, r, TR_CPUS);
	if (!json_is_array(cpus) || !json_array_size(cpus)) {
		fputs("<p class=\"note\">No topology result given.</p>\n", f);
		return;
	}
	size_t ncpus = json_array_size(cpus);
	size_t max = 8 + json_array_size(schema_get(&topology_result, r, TR_NODES)) +
		     json_array_size(schema_get(&topology_result, r, TR_CACHES)) + 2 * ncpus;
	struct tgroup *g = calloc(max, sizeof(*g));
	if (!g)
		return;
	int n = 0;
	/* machine */
	struct tgroup *m = &g[n++];
	m->depth = 0;
	m->cls = "box mach";
	set_from(schema_get(&topology_result, r, TR_ALLOWED_CPUS), m->set);
	size_t i;
	json_t *v;
	json_array_foreach(cpus, i, v) {
		json_int_t cpu = schema_int(&topology_result, v, TR_CPU, -1);
		if (cpu >= 0 && cpu < TOPO_MAX_CPUS)
			m->set[cpu / 64] |= 1ull << (cpu % 64);
	}
	char mem[32], lat[32];
	buffer_format_size(page_size(schema_num(&topology_result, r, TR_MEMORY)), mem, sizeof(mem));
	const char *host = schema_str(&host_result, c->machine, HO_HOSTNAME);
	snprintf(m->label, sizeof(m->label), "Machine %s", host ? host : "");
	snprintf(m->note, sizeof(m->note), "memory %s", mem);
	double ml = c->pr.memory_latency.value;
	if (isfinite(ml)) {
		page_fmt_value(ml, machine_probe_fields[MP_CACHES_MEMORY_LATENCY].unit, lat, sizeof(lat));
		char rnd[32];
		double mr = c->pr.memory_latency_random.value;
		page_fmt_value(mr, machine_probe_fields[MP_CACHES_MEMORY_LATENCY_RANDOM].unit, rnd, sizeof(rnd));
		/* the page-segmented chase's latency is not the random one: name each by its pattern */
		snprintf(m->note2, sizeof(m->note2), isfinite(mr) ? "memory latency %s page-local, %s random"
							      : "memory latency %s (page-local chase)", lat, rnd);
	}
	/* packages from the CPUs' package numbers */
	int npk = page_count(schema_num(&topology_result, r, TR_PACKAGES));
	for (int p = 0; p < npk && p < 64 && n < (int)max; p++) {
		struct tgroup *t = &g[n];
		memset(t->set, 0, sizeof(t->set));
		json_array_foreach(cpus, i, v) {
			json_int_t cpu = schema_int(&topology_result, v, TR_CPU, -1);
			if (schema_int(&topology_result, v, TR_CPU_PACKAGE, -1) == p && cpu >= 0 && cpu < TOPO_MAX_CPUS) {
				t->set[cpu / 64] |= 1ull << (cpu % 64);
				t->count++;
			}
		}
		if (!t->count)
			continue;
		t->depth = 1;
		t->cls = "box pkg";
		snprintf(t->label, sizeof(t->label), "Package %d", p);
		n++;
	}
	/* NUMA nodes */
	json_t *nodes = schema_get(&topology_result, r, TR_NODES);
	json_array_foreach(nodes, i, v) {
		if (n >= (int)max)
			break;
		struct tgroup *t = &g[n];
		t->count = set_from(schema_get(&topology_result, v, TR_NODE_CPUS), t->set);
		if (!t->count)
			continue;
		t->depth = 2;
		t->cls = "box numa";
		buffer_format_size(page_size(schema_num(&topology_result, v, TR_NODE_MEMORY)), mem, sizeof(mem));
		snprintf(t->label, sizeof(t->label), "NUMA node %.0f", schema_num(&topology_result, v, TR_NODE));
		snprintf(t->note, sizeof(t->note), "%s", mem);
		n++;
	}
	/* data and unified caches, the highest level nearest the package */
	int maxlevel = 0;
	json_array_foreach(schema_get(&topology_result, r, TR_CACHES), i, v) {
		const char *type = schema_str(&topology_result, v, TR_CACHE_TYPE);
		if (type && !strcmp(type, "instruction"))
			continue;
		int lv = page_count(schema_num(&topology_result, v, TR_CACHE_LEVEL));
		if (lv > maxlevel && lv < 8)
			maxlevel = lv;
	}
	json_array_foreach(schema_get(&topology_result, r, TR_CACHES), i, v) {
		const char *type = schema_str(&topology_result, v, TR_CACHE_TYPE);
		int lv = page_count(schema_num(&topology_result, v, TR_CACHE_LEVEL));
		if ((type && !strcmp(type, "instruction")) || lv < 1 || lv > maxlevel || n >= (int)max)
			continue;
		struct tgroup *t = &g[n];
		t->count = set_from(schema_get(&topology_result, v, TR_CACHE_CPUS), t->set);
		if (!t->count)
			continue;
		t->depth = 3 + (maxlevel - lv);
		t->cls = "box cache";
		char size[32];
		buffer_format_size(page_size(schema_num(&topology_result, v, TR_CACHE_SIZE)), size, sizeof(size));
		snprintf(t->label, sizeof(t->label), "L%d%s %s", lv, type && !strcmp(type, "data") ? "d" : "", size);
		double ways = schema_num(&topology_result, v, TR_CACHE_WAYS), line = schema_num(&topology_result, v, TR_CACHE_LINE);
		if (isfinite(ways) && ways > 0)
			snprintf(t->note, sizeof(t->note), "%.0f-way, %.0f B lines (OS)", ways, line);
		double conf = NAN, ms = measured_size(c, lv, &conf);
		if (isfinite(ms)) {
			char s2[32];
			buffer_format_size((size_t)ms, s2, sizeof(s2));
			snprintf(t->note2, sizeof(t->note2), "measured %s (%.2f)", s2, conf);
		}
		n++;
	}
	/* cores, with their hardware threads */
	json_array_foreach(cpus, i, v) {
		json_int_t core = schema_int(&topology_result, v, TR_CPU_CORE, -1);
		json_int_t pkg = schema_int(&topology_result, v, TR_CPU_PACKAGE, -1);
		json_int_t cpu = schema_int(&topology_result, v, TR_CPU, -1);
		if (cpu < 0 || cpu >= TOPO_MAX_CPUS)
			continue;
		int found = -1;
		for (int k = 0; k < n; k++)
			if (g[k].depth == 3 + maxlevel && g[k].parent == (int)pkg && !strncmp(g[k].label, "Core ", 5) &&
			    atoi(g[k].label + 5) == (int)core)
				found = k;
		if (found < 0) {
			if (n >= (int)max)
				continue;
			found = n++;
			memset(&g[found], 0, sizeof(g[found]));
			g[found].depth = 3 + maxlevel;
			g[found].parent = (int)pkg; /* the package number, until parents are set below */
			g[found].cls = "box core";
			snprintf(g[found].label, sizeof(g[found].label), "Core %lld", (long long)core);
		}
		g[found].set[cpu / 64] |= 1ull << (cpu % 64);
		g[found].count++;
	}
	for (int k = 0; k < n; k++)
		if (g[k].depth == 3 + maxlevel) {
			char list[80];
			set_list(g[k].set, list, sizeof(list));
			snprintf(g[k].note, sizeof(g[k].note), "PU %s", list);
		}
	/* parents: the smallest group of a lower depth holding all of a group's CPUs */
	for (int k = 0; k < n; k++) {
		g[k].parent = -1;
		if (g[k].depth == 0)
			continue;
		int best = 0, bestd = -1;
		for (int j = 0; j < n; j++)
			if (g[j].depth < g[k].depth && g[j].depth > bestd && set_within(g[k].set, g[j].set)) {
				best = j;
				bestd = g[j].depth;
			}
		g[k].parent = best;
	}
	struct tboxes tb = { .g = g, .n = n, .max = n + 1 };
	tb.pool = calloc((size_t)tb.max, sizeof(*tb.pool));
	tb.more = calloc((size_t)tb.max, sizeof(*tb.more));
	if (tb.pool && tb.more) {
		struct svg_box root = { .label = m->label, .note = m->note, .note2 = m->note2[0] ? m->note2 : NULL, .cls = m->cls };
		topo_boxes(&tb, 0, &root);
		page_figure_open(c, "topology");
		svg_boxes(f, "topology: packages, NUMA nodes, caches and cores as the OS reports them, with the measured cache sizes", &root);
		page_figure_close(c, "The machine as the OS reports it (hwloc: archscope topology), each data cache annotated in "
				     "green with the size probe caches measured for its level and that answer's confidence. "
				     "PU: the hardware threads (CPU numbers) of a core.");
	}
	free(tb.pool);
	free(tb.more);
	free(g);
}

/* --- curves ---------------------------------------------------------------------------------- */

/* Which column of a recorded curve (struct machine_probes_point) a chart draws. */
enum curve_y { CURVE_MIN, CURVE_MEDIAN };

/* Arrays x[] and y[] from a recorded curve; returns the count (malloc'ed arrays). */
static size_t curve_arrays(const struct machine_probes_curve *cv, enum curve_y which, double **x, double **y)
{
	size_t n = cv->n > 0 ? (size_t)cv->n : 0;
	*x = calloc(n ? n : 1, sizeof(double));
	*y = calloc(n ? n : 1, sizeof(double));
	if (!*x || !*y)
		return 0;
	for (size_t i = 0; i < n; i++) {
		(*x)[i] = cv->pt[i].x;
		(*y)[i] = which == CURVE_MEDIAN ? cv->pt[i].median : cv->pt[i].min;
	}
	return n;
}

void page_latency(struct page_ctx *c)
{
	FILE *f = c->f;
	fputs("<h2 id=\"latency\">Latency against working set</h2>\n", f);
	const struct machine_probes_curve *curve = &c->pr.caches_ev.curve;
	if (!curve->n) {
		fputs("<p class=\"note\">No probe caches result given.</p>\n", f);
		return;
	}
	double *x, *ymin, *x2, *ymed;
	size_t n = curve_arrays(curve, CURVE_MIN, &x, &ymin);
	curve_arrays(curve, CURVE_MEDIAN, &x2, &ymed);
	const struct machine_probes_cache *levels = c->pr.cache;
	size_t nl = (size_t)c->pr.ncaches;
	struct svg_mark *marks = calloc(2 * nl + 1, sizeof(*marks));
	struct svg_point *pts = calloc(nl + 2, sizeof(*pts));
	char (*labels)[64] = calloc(3 * nl + 2, sizeof(*labels));
	size_t nm = 0, np = 0;
	for (size_t i = 0; marks && pts && labels && i < nl; i++) {
		int level = levels[i].level;
		double size = levels[i].size.value, os = levels[i].size.os_reported;
		char s[32];
		if (isfinite(size)) {
			buffer_format_size((size_t)size, s, sizeof(s));
			snprintf(labels[3 * i], 64, "L%d %s", level, s);
			marks[nm++] = (struct svg_mark){ .x = size, .label = labels[3 * i], .os = 0 };
			double lat = levels[i].latency.value;
			snprintf(labels[3 * i + 2], 64, "%.3g ns", lat);
			pts[np++] = (struct svg_point){ .x = size, .y = lat, .label = labels[3 * i + 2] };
		}
		if (isfinite(os) && os > 0) {
			buffer_format_size((size_t)os, s, sizeof(s));
			snprintf(labels[3 * i + 1], 64, "L%d %s (OS)", level, s);
			marks[nm++] = (struct svg_mark){ .x = os, .label = labels[3 * i + 1], .os = 1 };
		}
	}
	double mem = c->pr.memory_latency.value;
	char memlbl[48];
	if (pts && isfinite(mem) && n) {
		snprintf(memlbl, sizeof(memlbl), "memory %.3g ns", mem);
		pts[np++] = (struct svg_point){ .x = x[n - 1], .y = mem, .label = memlbl };
	}
	struct svg_series s[2] = { { .name = "fastest pass (min)", .x = x, .y = ymin, .n = n },
				   { .name = "median", .x = x2, .y = ymed, .n = n, .dashed = 1 } };
	struct svg_chart ch = {
		.label = "memory latency against working set, with the cache sizes found and the OS-reported ones",
		.w = 760, .h = 400,
		.x = { .lo = NAN, .hi = NAN, .log = 2, .label = "working set", .fmt = svg_fmt_bytes },
		.y = { .lo = NAN, .hi = NAN, .log = 10, .label = "latency per access (ns)" },
		.series = s, .nseries = 2, .marks = marks, .nmarks = nm, .points = pts, .npoints = np,
	};
	char cap[400];
	snprintf(cap, sizeof(cap), "Pointer chasing in page-segmented random order (probe caches, %s): solid green lines "
				   "mark the level sizes found from the curve's steps, dashed orange lines the sizes the OS "
				   "reports; points give each level's latency.",
		 c->pr.caches_ev.pages[0] ? c->pr.caches_ev.pages : "pages as given");
	page_figure_chart(c, "latency", &ch, cap);
	free(x);
	free(ymin);
	free(x2);
	free(ymed);
	free(marks);
	free(pts);
	free(labels);
}

/* A small curve chart of one probe's evidence, with the answer marked. */
static void small_curve(struct page_ctx *c, const char *id, const char *title, const struct machine_probes_curve *cv,
			enum curve_y which, int xlog, const char *xlabel, const char *ylabel, int bytes, double answer,
			const char *answer_label)
{
	double *x, *y;
	size_t n = curve_arrays(cv, which, &x, &y);
	if (n >= 2) {
		struct svg_mark mk = { .x = answer, .label = answer_label, .os = 0 };
		struct svg_series s = { .name = NULL, .x = x, .y = y, .n = n };
		struct svg_chart ch = {
			.label = title, .w = 420, .h = 260,
			.x = { .lo = NAN, .hi = NAN, .log = xlog, .label = xlabel, .fmt = bytes ? svg_fmt_bytes : NULL },
			.y = { .lo = NAN, .hi = NAN, .log = 0, .label = ylabel },
			.series = &s, .nseries = 1, .marks = &mk, .nmarks = isfinite(answer) ? 1 : 0,
		};
		page_figure_chart(c, id, &ch, title);
	}
	free(x);
	free(y);
}

void page_curves(struct page_ctx *c)
{
	FILE *f = c->f;
	const struct machine_probes *pr = &c->pr;
	if (!c->probe)
		return;
	fputs("<h2 id=\"curves\">The other probes' curves</h2>\n<div class=\"grid2\">\n", f);
	char lbl[64];
	double v = pr->line_coherence.value;
	snprintf(lbl, sizeof(lbl), "%.0f B", v);
	small_curve(c, "line", "line: coherence unit, time per increment against counter distance",
		    &pr->line_ev.coherence_curve, CURVE_MEDIAN, 2, "distance of the counters",
		    "ns per increment", 1, v, lbl);
	v = pr->line_stride.value;
	snprintf(lbl, sizeof(lbl), "%.0f B", v);
	small_curve(c, "line-stride", "line: access pairs D bytes apart (stride witness)", &pr->line_ev.curve,
		    CURVE_MIN, 2, "D", "ns per pair", 1, v, lbl);
	for (int i = 0; i < pr->nassoc; i++) {
		char id[32], title[96], l2[32];
		int level = pr->assoc[i].level;
		snprintf(id, sizeof(id), "assoc-l%d", level);
		snprintf(title, sizeof(title), "assoc L%d: K addresses a level-size apart", level);
		snprintf(l2, sizeof(l2), "%.0f ways", pr->assoc[i].ways.value);
		small_curve(c, id, title, &pr->assoc[i].curve, CURVE_MIN, 0, "K",
			    "ns per access", 0, pr->assoc[i].ways.value, l2);
	}
	double entries = pr->ntlb ? pr->tlb[0].entries.value : NAN;
	snprintf(lbl, sizeof(lbl), "%.0f entries", entries);
	small_curve(c, "tlb", "tlb: pages touched at a different line each", &pr->tlb_ev.entries_curve,
		    CURVE_MIN, 2, "pages", "ns per access", 0, entries, lbl);
	v = pr->page_size.value;
	snprintf(lbl, sizeof(lbl), "%.0f B", v);
	small_curve(c, "tlb-page", "tlb page size: first touches every s bytes (fault witness)",
		    &pr->tlb_ev.fault_curve, CURVE_MIN, 2, "s", "ns per touch", 1, v, lbl);
	static const int ctx[] = { MP_CONTEXTS_FP, MP_CONTEXTS_INT, MP_CONTEXTS_MEM };
	for (int k = 0; k < 3; k++) {
		const char *key = machine_probe_fields[ctx[k]].key;
		char id[24], title[96];
		snprintf(id, sizeof(id), "contexts-%s", key);
		snprintf(title, sizeof(title), "contexts %s: time of M threads, normalised to one", key);
		v = ((const struct machine_answer *)machine_probes_at(pr, ctx[k]))->value;
		snprintf(lbl, sizeof(lbl), "%.0f", v);
		small_curve(c, id, title, &pr->contexts_ev[k].curve, CURVE_MIN, 0, "threads M",
			    "time / time(1)", 0, v, lbl);
	}
	static const int regs[] = { MP_REGISTERS_INT, MP_REGISTERS_FP };
	for (int k = 0; k < 2; k++) {
		const char *key = machine_probe_fields[regs[k]].key;
		char id[24], title[96];
		v = ((const struct machine_answer *)machine_probes_at(pr, regs[k]))->value;
		snprintf(lbl, sizeof(lbl), "%.0f registers", v);
		snprintf(id, sizeof(id), "registers-%s", key);
		snprintf(title, sizeof(title), "registers %s: cycles per addition with K live variables", key);
		small_curve(c, id, title, &pr->registers_ev[k].curve, CURVE_MIN, 0, "K", "cy per add", 0, v, lbl);
	}
	fputs("</div>\n", f);
}

/* --- bandwidth ----------------------------------------------------------------------------- */

void page_bandwidth(struct page_ctx *c)
{
	FILE *f = c->f;
	fputs("<h2 id=\"bandwidth\">Bandwidth per level and thread count</h2>\n", f);
	int shown = 0;
	for (size_t b = 0; b < c->nbench; b++) {
		json_t *r = output_doc_results(c->bench[b]);
		json_t *sc = schema_get(&bench_scaling_result, r, BS_ROWS);
		if (json_is_array(sc) && json_array_size(sc)) {
			/* groups: the levels of the first thread count; bars: the thread counts */
			json_t *first = schema_get(&bench_scaling_result, json_array_get(sc, 0), BS_LEVELS);
			size_t ng = json_array_size(first), nb = json_array_size(sc);
			if (ng == 0 || ng > 16 || nb > 64)
				continue;
			const char *groups[16];
			char (*bl)[24] = calloc(nb, sizeof(*bl));
			const char **bars = calloc(nb, sizeof(*bars));
			double *vals = calloc(ng * nb, sizeof(double));
			if (!bl || !bars || !vals) {
				free(bl);
				free(bars);
				free(vals);
				continue;
			}
			for (size_t g = 0; g < ng; g++)
				{
				const char *lv = schema_str(&bench_scaling_result, json_array_get(first, g), BS_LEVEL);
				groups[g] = lv ? lv : "?";
			}
			for (size_t t = 0; t < nb; t++) {
				json_t *row = json_array_get(sc, t);
				double th = schema_num(&bench_scaling_result, row, BS_THREADS);
				snprintf(bl[t], sizeof(bl[t]), "%.0f thread%s", th, th == 1 ? "" : "s");
				bars[t] = bl[t];
				for (size_t g = 0; g < ng; g++) {
					vals[g * nb + t] = NAN;
					size_t k;
					json_t *lv;
					json_array_foreach(schema_get(&bench_scaling_result, row, BS_LEVELS), k, lv) {
						const char *name = schema_str(&bench_scaling_result, lv, BS_LEVEL);
						if (name && !strcmp(name, groups[g]))
							vals[g * nb + t] = schema_num(&bench_scaling_result, lv, BS_GBS);
					}
				}
			}
			char label[160], cap[400];
			const char *kernel = schema_str(&bench_scaling_result, r, BS_KERNEL);
			const char *variant = schema_str(&bench_scaling_result, r, BS_VARIANT);
			snprintf(label, sizeof(label), "bandwidth of the %s kernel per memory level and thread count (GB/s)",
				 kernel ? kernel : "?");
			page_figure_open(c, "bandwidth");
			svg_chart_bars(f, label, groups, ng, bars, nb, vals, "GB/s", 0);
			snprintf(cap, sizeof(cap), "bench --threads-scaling (%s): GB/s of the %s kernel (%s) as the application sees "
						   "it, per level and thread count; the caches' working sets are private per "
						   "thread, the last cache's and memory's shared.",
				 c->bench_name[b], kernel ? kernel : "?", variant ? variant : "?");
			page_figure_close(c, cap);
			shown++;
			free(bl);
			free(bars);
			free(vals);
			continue;
		}
		json_t *runs = schema_get(&bench_result, r, BR_RUNS);
		size_t nr = json_array_size(runs);
		if (!nr)
			continue;
		/* a sweep: GB/s against size, one series per kernel and thread count */
		double *x = calloc(nr, sizeof(double)), *y = calloc(nr, sizeof(double));
		if (!x || !y) {
			free(x);
			free(y);
			continue;
		}
		for (size_t i = 0; i < nr; i++) {
			x[i] = schema_num(&bench_result, json_array_get(runs, i), BR_RUN_SIZE);
			y[i] = schema_spread(&bench_result, json_array_get(runs, i), BR_RUN_GBS, SCHEMA_MEDIAN);
		}
		if (nr >= 4) {
			struct svg_series s = { .name = NULL, .x = x, .y = y, .n = nr };
			struct svg_chart ch = {
				.label = "bandwidth against working set (GB/s)", .w = 760, .h = 360,
				.x = { .lo = NAN, .hi = NAN, .log = 2, .label = "working set", .fmt = svg_fmt_bytes },
				.y = { .lo = NAN, .hi = NAN, .log = 0, .label = "GB/s (median)" },
				.series = &s, .nseries = 1,
			};
			char cap[300];
			const char *kernel = schema_str(&bench_result, json_array_get(runs, 0), BR_RUN_KERNEL);
			snprintf(cap, sizeof(cap), "bench (%s): median GB/s of the %s kernel against the working set.", c->bench_name[b],
				 kernel ? kernel : "?");
			page_figure_chart(c, "bandwidth-sweep", &ch, cap);
			shown++;
		} else {
			fputs("<div class=\"tw\"><table><thead><tr><th>kernel</th><th>variant</th><th class=\"n\">working set</th>"
			      "<th class=\"n\">threads</th><th class=\"n\">GB/s</th><th class=\"n\">cy/CL</th></tr></thead><tbody>\n", f);
			for (size_t i = 0; i < nr; i++) {
				json_t *run = json_array_get(runs, i);
				char size[32];
				buffer_format_size(page_size(x[i]), size, sizeof(size));
				fprintf(f, "<tr><td>");
				page_esc(f, schema_str(&bench_result, run, BR_RUN_KERNEL));
				fprintf(f, "</td><td>");
				page_esc(f, schema_str(&bench_result, run, BR_RUN_VARIANT));
				fprintf(f, "</td><td class=\"n\">%s</td><td class=\"n\">%.0f</td><td class=\"n\">%.3g</td><td class=\"n\">%.3g</td></tr>\n",
					size, schema_num(&bench_result, run, BR_RUN_THREADS), y[i],
					schema_spread(&bench_result, run, BR_RUN_CY_PER_CL, SCHEMA_MEDIAN));
			}
			fputs("</tbody></table></div>\n", f);
			c->sum->tables++;
			shown++;
		}
		free(x);
		free(y);
	}
	if (!shown)
		fputs("<p class=\"note\">No bench result given (archscope bench --threads-scaling --json).</p>\n", f);
}

/* --- heatmaps ------------------------------------------------------------------------------ */

/* An n x n matrix of numbers (null: NaN) from a JSON array of arrays; NULL when it is not one. */
static double *matrix(json_t *m, size_t *n)
{
	*n = json_is_array(m) ? json_array_size(m) : 0;
	if (!*n || *n > 1024)
		return NULL;
	double *v = malloc(*n * *n * sizeof(double));
	if (!v)
		return NULL;
	for (size_t i = 0; i < *n; i++) {
		json_t *row = json_array_get(m, i);
		if (json_array_size(row) != *n) {
			free(v);
			return NULL;
		}
		for (size_t j = 0; j < *n; j++) {
			json_t *x = json_array_get(row, j);
			v[i * *n + j] = json_is_number(x) ? json_number_value(x) : NAN;
		}
	}
	return v;
}

/* An n x n heatmap of v; its rows and columns named prefix + names[i] (JSON numbers, or the
 * integers in ids where names is NULL; else the index). */
static void heat_of(struct page_ctx *c, const char *id, size_t n, const double *v, json_t *names, const int *ids,
		    const char *prefix, const char *label, const char *unit, const char *corner, const char *caption)
{
	char (*lb)[24] = calloc(n, sizeof(*lb));
	const char **l = calloc(n, sizeof(*l));
	if (lb && l) {
		for (size_t i = 0; i < n; i++) {
			json_t *nm = json_array_get(names, i);
			if (json_is_number(nm))
				snprintf(lb[i], sizeof(lb[i]), "%s%.0f", prefix, json_number_value(nm));
			else if (!names && ids)
				snprintf(lb[i], sizeof(lb[i]), "%s%d", prefix, ids[i]);
			else
				snprintf(lb[i], sizeof(lb[i]), "%s%zu", prefix, i);
			l[i] = lb[i];
		}
		page_figure_open(c, id);
		svg_heatmap(c->f, label, n, n, v, l, l, unit, corner);
		page_figure_close(c, caption);
	}
	free(lb);
	free(l);
}

static void heat(struct page_ctx *c, const char *id, json_t *mat, json_t *names, const char *prefix, const char *label,
		 const char *unit, const char *corner, const char *caption)
{
	size_t n;
	double *v = matrix(mat, &n);
	if (!v)
		return;
	heat_of(c, id, n, v, names, NULL, prefix, label, unit, corner, caption);
	free(v);
}

/* A matrix of probe c2c (the CPUs of its rows and columns in c2c.cpus), NULL: none. */
static void heat_c2c(struct page_ctx *c, const char *id, int matrix_id, const char *label, const char *caption)
{
	const struct machine_probes_c2c *m = &c->pr.c2c;
	const double *v = *(double *const *)machine_probes_at(&c->pr, matrix_id);
	if (v && m->ncpus > 0)
		heat_of(c, id, (size_t)m->ncpus, v, NULL, m->cpus, "CPU ", label, machine_probe_fields[matrix_id].unit,
			"from \\ to", caption);
}

void page_heatmaps(struct page_ctx *c)
{
	FILE *f = c->f;
	fputs("<h2 id=\"heatmaps\">Core to core and NUMA</h2>\n<div class=\"grid2\">\n", f);
	int shown = c->sum->figures;
	heat_c2c(c, "c2c-bandwidth", MP_C2C_BANDWIDTH, "core-to-core bandwidth (GB/s)",
		 "probe c2c: one-way bandwidth between each pair of CPUs (GB/s, the largest block); the diagonal is not "
		 "measured.");
	heat_c2c(c, "c2c-latency", MP_C2C_LATENCY, "core-to-core latency (ns)",
		 "probe c2c: half the round trip of a cache line bounced between two CPUs (ns).");
	json_t *numa = output_doc_results(c->numa), *topo = output_doc_results(c->topo);
	json_t *nodes = schema_get(&numa_matrix_result, numa, NMX_NODES);
	heat(c, "numa-latency", schema_get(&numa_matrix_result, numa, NMX_LATENCY), nodes, "node ", "NUMA latency (ns)", "ns",
	     "CPUs \\ memory", "numa matrix: idle latency from the CPUs of node i (row) to the memory of node j (ns).");
	heat(c, "numa-bandwidth", schema_get(&numa_matrix_result, numa, NMX_BW), nodes, "node ", "NUMA bandwidth (GB/s)", "GB/s",
	     "CPUs \\ memory", "numa matrix: bandwidth of all CPUs of node i reading the memory of node j (GB/s).");
	if (!c->numa && schema_get(&topology_result, topo, TR_DISTANCES)) {
		json_t *tn = json_array();
		size_t i;
		json_t *v;
		json_array_foreach(schema_get(&topology_result, topo, TR_NODES), i, v)
			json_array_append(tn, schema_get(&topology_result, v, TR_NODE));
		heat(c, "numa-slit", schema_get(&topology_result, topo, TR_DISTANCES), tn, "node ", "NUMA distances (SLIT, OS-reported)", "",
		     "CPUs \\ memory", "The firmware's SLIT distances as the OS reports them (relative, 10 = local); "
				       "archscope numa matrix measures latency and bandwidth instead.");
		json_decref(tn);
	}
	fputs("</div>\n", f);
	if (c->sum->figures == shown)
		fputs("<p class=\"note\">No c2c, numa matrix or topology distances given.</p>\n", f);
}

/* --- Roofline ------------------------------------------------------------------------------ */

#define ROOF_SLOPES 16
#define ROOF_LEVELS 8

/* The Roofline's ceilings, each labelled with its source: this run's (or a saved result's)
 * measurements and the machine files the models used. A model point is drawn against the ceiling
 * of the machine file it used, never against another source's. */
struct roof {
	double slopes[ROOF_SLOPES];
	char slevel[ROOF_SLOPES][16];
	char stext[ROOF_SLOPES][128];
	char sshort[ROOF_SLOPES][16]; /* its source in a word, for a point's label on the chart */
	const char *slabels[ROOF_SLOPES];
	size_t ns;
	double levels[ROOF_LEVELS];
	char ltext[ROOF_LEVELS][128];
	const char *llabels[ROOF_LEVELS];
	size_t nlev;
};

/* Two figures that print as one ceiling (within half a percent). */
static int roof_same(double a, double b)
{
	return fabs(a - b) <= 0.005 * fabs(b);
}

/* The bandwidth ceiling of `level` at gbs from `source`: one drawn already at that bandwidth, else
 * a new one labelled "LEVEL GB/s (SOURCE)"; its index, or -1 where there is no room. */
static int roof_slope(struct roof *r, const char *level, double gbs, const char *source, const char *word)
{
	level = level ? level : "?";
	for (size_t i = 0; i < r->ns; i++)
		if (!strcmp(r->slevel[i], level) && roof_same(r->slopes[i], gbs))
			return (int)i;
	if (r->ns >= ROOF_SLOPES)
		return -1;
	size_t i = r->ns++;
	r->slopes[i] = gbs;
	snprintf(r->slevel[i], sizeof(r->slevel[i]), "%s", level);
	snprintf(r->stext[i], sizeof(r->stext[i]), "%s %.3g GB/s (%s)", level, gbs, source);
	r->slabels[i] = r->stext[i];
	snprintf(r->sshort[i], sizeof(r->sshort[i]), "%s", word);
	return (int)i;
}

/* A compute ceiling (text: its label) unless one drawn already is the same. */
static void roof_level(struct roof *r, double gflops, const char *text)
{
	for (size_t i = 0; i < r->nlev; i++)
		if (roof_same(r->levels[i], gflops))
			return;
	if (r->nlev >= ROOF_LEVELS || !(gflops > 0))
		return;
	r->levels[r->nlev] = gflops;
	snprintf(r->ltext[r->nlev], sizeof(r->ltext[0]), "%s", text);
	r->llabels[r->nlev] = r->ltext[r->nlev];
	r->nlev++;
}

/* "machine file NAME" for a model: its machine file's name without directory and extension. */
static void roof_model_source(json_t *r, char *buf, size_t len)
{
	const char *mf = schema_str(&model_result, r, MO_MACHINE_FILE);
	const char *base = mf && strrchr(mf, '/') ? strrchr(mf, '/') + 1 : mf;
	const char *dot = base ? strrchr(base, '.') : NULL;
	int n = base ? (dot && dot > base ? (int)(dot - base) : (int)strlen(base)) : 1;
	snprintf(buf, len, "machine file %.*s", n, base ? base : "?");
}

/* The measured ceilings: compute from probe instr, bandwidth from the first bench
 * --threads-scaling's one-thread row; returns whether a bandwidth was measured. */
static int roof_measured(struct page_ctx *c, struct roof *rf)
{
	double ghz = c->pr.clock.value;
	/* DP vector and DP scalar: flops_per_cy[DP][vector, scalar][total] */
	static const char *const prec[] = { "DP vector", "DP scalar" };
	for (int k = 0; k < 2; k++) {
		double fpc = c->pr.flops_per_cy[1][1 - k][0];
		char t[128];
		if (isfinite(fpc) && isfinite(ghz) && fpc > 0) {
			snprintf(t, sizeof(t), "%s peak %.3g GFLOP/s (%.3g flop/cy x %.3g GHz)", prec[k], fpc * ghz, fpc, ghz);
			roof_level(rf, fpc * ghz, t);
		}
	}
	for (size_t b = 0; b < c->nbench; b++) {
		json_t *row = json_array_get(schema_get(&bench_scaling_result, output_doc_results(c->bench[b]), BS_ROWS), 0);
		if (schema_num(&bench_scaling_result, row, BS_THREADS) != 1)
			continue;
		char src[96];
		const char *bn = c->bench_name[b], *base = bn && strrchr(bn, '/') ? strrchr(bn, '/') + 1 : bn;
		if (c->in->run)
			snprintf(src, sizeof(src), "this run");
		else
			snprintf(src, sizeof(src), "measured, %s", base ? base : "bench");
		size_t i;
		json_t *lv;
		json_array_foreach(schema_get(&bench_scaling_result, row, BS_LEVELS), i, lv) {
			double gbs = schema_num(&bench_scaling_result, lv, BS_GBS);
			if (gbs > 0)
				roof_slope(rf, schema_str(&bench_scaling_result, lv, BS_LEVEL), gbs, src,
					   c->in->run ? "this run" : "measured");
		}
		return rf->ns > 0;
	}
	return 0;
}

/* The ceiling of one level of a model's machine file: "machine file NAME, KERNEL kernel". */
static int roof_model_slope(struct roof *rf, json_t *lv, const char *file)
{
	char src[160];
	const char *k = schema_str(&model_result, lv, MO_RL_BW_KERNEL);
	if (k)
		snprintf(src, sizeof(src), "%s, %s kernel", file, k);
	else
		snprintf(src, sizeof(src), "%s", file);
	double gbs = schema_num(&model_result, lv, MO_RL_BW);
	return gbs > 0 ? roof_slope(rf, schema_str(&model_result, lv, MO_RL_LEVEL), gbs, src, "machine file") : -1;
}

/* A model's point at the intensity of its bottleneck level and its predicted GFLOP/s, under the
 * ceiling that bounds it (its machine file's bandwidth of that level, drawn), which its label and
 * title name; 0 where it has none to draw. With `all`, every level of the model's machine file
 * becomes a ceiling. */
static int roof_point(struct roof *rf, json_t *r, int all, struct svg_point *pt, char (*lbl)[256])
{
	char file[96];
	roof_model_source(r, file, sizeof(file));
	size_t i;
	json_t *lv;
	if (all)
		json_array_foreach(schema_get(&model_result, r, MO_RL_LEVELS), i, lv)
			roof_model_slope(rf, lv, file);
	const char *bn = schema_str(&model_result, r, MO_RL_BOTTLENECK);
	double gf = schema_num(&model_result, r, MO_RL_GFLOPS), inten = NAN;
	int s = -1;
	json_array_foreach(schema_get(&model_result, r, MO_RL_LEVELS), i, lv) {
		const char *name = schema_str(&model_result, lv, MO_RL_LEVEL);
		if (bn && name && !strcmp(bn, name)) {
			inten = schema_num(&model_result, lv, MO_RL_INTENSITY);
			s = roof_model_slope(rf, lv, file);
		}
	}
	if (!isfinite(inten) || !isfinite(gf) || s < 0)
		return 0;
	const char *k = schema_str(&model_result, r, MO_KERNEL);
	const char *base = k && strrchr(k, '/') ? strrchr(k, '/') + 1 : k;
	base = base ? base : "kernel";
	snprintf(lbl[0], sizeof(lbl[0]), "%s: %s-bound under %.3g GB/s (%s)", base, bn, rf->slopes[s], rf->sshort[s]);
	snprintf(lbl[1], sizeof(lbl[1]), "%s (model, %s-bound: %s)", base, bn, rf->slabels[s]);
	*pt = (struct svg_point){ .x = inten, .y = gf, .label = lbl[0], .title = lbl[1] };
	return 1;
}

void page_roofline(struct page_ctx *c)
{
	FILE *f = c->f;
	fputs("<h2 id=\"roofline\">Roofline</h2>\n", f);
	struct roof *rf = calloc(1, sizeof(*rf));
	struct svg_point *pts = calloc(c->nmodel + 1, sizeof(*pts));
	char (*plbl)[256] = calloc(2 * c->nmodel + 2, sizeof(*plbl)); /* a label and a title per point */
	if (!rf || !pts || !plbl) {
		free(rf);
		free(pts);
		free(plbl);
		return;
	}
	int measured_bw = roof_measured(c, rf);
	size_t np = 0;
	for (size_t m = 0; m < c->nmodel; m++)
		np += (size_t)roof_point(rf, output_doc_results(c->model[m]), !measured_bw && m == 0, &pts[np], plbl + 2 * np);
	if (!rf->nlev && !rf->ns) {
		fputs("<p class=\"note\">No probe instr (compute ceilings), bench --threads-scaling or model result "
		      "(bandwidth ceilings) given.</p>\n", f);
		free(rf);
		free(pts);
		free(plbl);
		return;
	}
	double ylo = NAN;
	for (size_t i = 0; i < rf->ns; i++)
		if (!(rf->slopes[i] * 0.01 >= ylo))
			ylo = rf->slopes[i] * 0.01;
	struct svg_chart ch = {
		.label = "Roofline: GFLOP/s against operational intensity, with the measured ceilings",
		.w = 760, .h = 420,
		.x = { .lo = 0.01, .hi = 100, .log = 10, .label = "operational intensity (flop/byte)" },
		.y = { .lo = isfinite(ylo) ? ylo : NAN, .hi = NAN, .log = 10, .label = "GFLOP/s" },
		.points = pts, .npoints = np,
		.slopes = rf->slopes, .nslopes = rf->ns, .slope_labels = rf->slabels,
		.levels = rf->levels, .nlevels = rf->nlev, .level_labels = rf->llabels,
	};
	if (isfinite(ch.y.lo)) {
		double top = rf->nlev ? rf->levels[0] : rf->slopes[0] * 100;
		for (size_t i = 0; i < rf->nlev; i++)
			if (rf->levels[i] > top)
				top = rf->levels[i];
		ch.y.hi = top * 2;
		for (size_t i = 0; i < np; i++)
			if (pts[i].y < ch.y.lo)
				ch.y.lo = pts[i].y / 2;
	}
	char cap[600];
	snprintf(cap, sizeof(cap), "One core. Each ceiling is labelled with its source: compute ceilings from probe instr "
				   "(FLOPs per cycle at the measured clock), bandwidth ceilings from %s; where a model's "
				   "machine file gives another figure, its ceiling is drawn too. %s",
		 measured_bw ? "bench --threads-scaling (one thread)" : "the first model's machine file",
		 np ? "Points: each model's kernel at the intensity of its bottleneck level and its predicted GFLOP/s, "
		      "under the ceiling of the machine file it used, which its label names."
		    : "No model result given: no kernel points.");
	page_figure_chart(c, "roofline", &ch, cap);
	free(rf);
	free(pts);
	free(plbl);
}
