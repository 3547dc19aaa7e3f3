/* Private to page/page.c and page/page-figures.c: the state of one page being written and the
 * helpers both use (JSON reading by dotted path, HTML escaping, number formats). */
#ifndef ARCHSCOPE_PAGE_PAGE_IMPL_H
#define ARCHSCOPE_PAGE_PAGE_IMPL_H

#include <jansson.h>
#include <stdio.h>

#include "machine/probes.h"
#include "page/page.h"

#define PAGE_MAX_DOCS 32

struct page_ctx {
	FILE *f;
	const struct page_input *in;
	struct page_summary *sum;
	json_t *topo, *probe, *numa;     /* documents (NULL: none given) */
	const char *topo_name, *probe_name, *numa_name;
	json_t *bench[PAGE_MAX_DOCS], *model[PAGE_MAX_DOCS];
	const char *bench_name[PAGE_MAX_DOCS], *model_name[PAGE_MAX_DOCS];
	size_t nbench, nmodel;
	json_t *machine;                 /* the machine block the page describes */
	struct machine_probes pr;        /* the probe's answers, read through their description
					  * (machine/probes.h); all "none" without a probe result */
};

/* The value at a dotted path ("results.caches.levels"; "results.c2c.cpus"), or NULL. */
json_t *page_get(json_t *o, const char *path);
/* A number at path (NaN when absent or not a number); a string at path (NULL). */
double page_num(json_t *o, const char *path);
const char *page_str(json_t *o, const char *path);

/* Text escaped for HTML (text and attribute values). */
void page_esc(FILE *f, const char *s);
/* A value with its unit for people: bytes in binary units, others with %.4g. */
void page_fmt_value(double v, const char *unit, char *buf, size_t len);

/* Adds a warning (shown at the top, and in the command's summary). */
void page_warn(struct page_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Opens and closes a figure: <figure id="fig-ID"> with the SVG inside, and its caption. */
void page_figure_open(struct page_ctx *c, const char *id);
void page_figure_close(struct page_ctx *c, const char *caption);

/* The figure sections (page-figures.c). */
void page_topology(struct page_ctx *c);
void page_latency(struct page_ctx *c);
void page_curves(struct page_ctx *c);
void page_bandwidth(struct page_ctx *c);
void page_heatmaps(struct page_ctx *c);
void page_roofline(struct page_ctx *c);

#endif
