/* The HTML report of a machine (`archscope report`): one self-contained page (inline CSS and SVG,
 * the inputs embedded as JSON, no script, nothing loaded from a network) built from the documents
 * archscope's commands print with --json: topology, probe, bench, model and numa matrix. It reads
 * them by their stable JSON names (DESIGN.md, "JSON names"), never by internal structs, so a page
 * can be made later from saved results. */
#ifndef ARCHSCOPE_PAGE_PAGE_H
#define ARCHSCOPE_PAGE_PAGE_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "common/error.h"

/* One input: a whole document {"archscope", "command", "machine", "results"}. */
struct page_source {
	const char *name; /* the file as given, or the command that made it */
	json_t *doc;
};

struct page_input {
	const struct page_source *sources;
	size_t n;
	const char *version;  /* archscope's, of this page */
	const char *date;     /* when the page is made (ISO 8601) */
	const char *run;      /* how the inputs were made ("this run: ..."), or NULL for saved results */
	double loadavg_start; /* this run's 1-minute load average when it started (NaN: unknown) */
	int cpus;             /* CPUs this run could use (for the load-average warning), 0: unknown */
};

#define PAGE_MAX_WARNINGS 16

/* What the page holds, for the command's own output. */
struct page_summary {
	int figures;  /* <figure> elements, each one <svg> */
	int tables;
	int answers;  /* answers listed with their confidence and method */
	int flagged;  /* of them flagged noisy or implausible (docs/conditions.md), each said beside it */
	int nwarnings;
	char warnings[PAGE_MAX_WARNINGS][320];
};

/* The largest page `archscope report` writes (the limit: under 5 MB). */
#define PAGE_MAX_BYTES (5u * 1000u * 1000u)

/* Checks that doc is a result the page reads (its "command" one of topology, probe, bench, model,
 * numa matrix, with a "results" object); 0, or -EINVAL with err naming the input and why. */
int page_source_check(const json_t *doc, const char *name, struct as_error *err);

/* Writes the page to out. 0, or a negative errno with err set (-EINVAL: two inputs of a kind
 * that may appear once, such as two probe results). */
int page_write(FILE *out, const struct page_input *in, struct page_summary *sum, struct as_error *err);

#endif
