/* Private to page/page.c and page/page-figures.c: the state of one page being written and the
 * helpers both use (JSON reading by dotted path, HTML escaping, number formats). */
#ifndef ARCHSCOPE_PAGE_PAGE_IMPL_H
#define ARCHSCOPE_PAGE_PAGE_IMPL_H

#include <jansson.h>
#include <stdio.h>

#include "machine/probes.h"
#include "page/page.h"
#include "report/svg.h"

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

/* A size in bytes from a result's number: 0 where it is not a finite number from 0, at most 2^53
 * (a number that cannot be a size is drawn as none, never cast beyond its type). */
size_t page_size(double v);
/* A count (packages, a cache level) from a result's number: -1 where it is not a whole number from 0
 * to 1e6. */
int page_count(double v);
/* The number under a key that is data, not a described key (the ECM's levels by name beside
 * ecm_data's described keys); NaN where there is none. Every described value is read by its id
 * (machine/schema.h, machine/probes.h). */
double page_num_named(const json_t *o, const char *name);

/* Text escaped for HTML (text and attribute values). */
void page_esc(FILE *f, const char *s);
/* A value with its unit for people: bytes in binary units, others with %.4g. */
void page_fmt_value(double v, const char *unit, char *buf, size_t len);

/* Adds a warning (shown at the top, and in the command's summary). */
void page_warn(struct page_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Opens and closes a figure: <figure id="fig-ID"> with the SVG inside, and its caption. */
void page_figure_open(struct page_ctx *c, const char *id);
void page_figure_close(struct page_ctx *c, const char *caption);
/* A figure of one line chart: page_figure_open, the chart, page_figure_close. */
void page_figure_chart(struct page_ctx *c, const char *id, const struct svg_chart *ch, const char *caption);

/* The figure sections (page-figures.c). */
void page_topology(struct page_ctx *c);
void page_latency(struct page_ctx *c);
void page_curves(struct page_ctx *c);
void page_bandwidth(struct page_ctx *c);
void page_heatmaps(struct page_ctx *c);
void page_roofline(struct page_ctx *c);

#endif
