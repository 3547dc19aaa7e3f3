/* A small SVG writer for the HTML report (page/page.h): elements with escaped text, axes on
 * linear or logarithmic scales, and the figures the report draws (line charts with marked x values,
 * grouped bars, heatmaps, nested boxes). Output is inline SVG for an HTML page: sized by viewBox
 * so it scales to its container, styled by the page's CSS classes (ax, grid, tick, lbl, s0..s7
 * series strokes, f0..f7 fills, meas/os markers), every figure with role="img" and a label. */
#ifndef ARCHSCOPE_REPORT_SVG_H
#define ARCHSCOPE_REPORT_SVG_H

#include <stddef.h>
#include <stdio.h>

/* Writes s with &, <, >, " and ' escaped (text and attribute values). */
void svg_escape(FILE *f, const char *s);

/* <svg viewBox="0 0 W H" ... role="img" aria-label="LABEL"> with a <title>; svg_close ends it. */
void svg_open(FILE *f, double w, double h, const char *label);
void svg_close(FILE *f);

/* Elements; cls is a class name or NULL. svg_text's anchor: "start", "middle" or "end". */
void svg_text(FILE *f, double x, double y, const char *cls, const char *anchor, const char *text);
void svg_textf(FILE *f, double x, double y, const char *cls, const char *anchor, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *cls);
/* fill: a colour ("#2a788e") or NULL for the class's; title: a tooltip or NULL. */
void svg_rect(FILE *f, double x, double y, double w, double h, const char *cls, const char *fill, const char *title);
void svg_circle(FILE *f, double x, double y, double r, const char *cls, const char *title);

/* An axis: data range [lo, hi] onto pixels [p0, p1]. log: 0 linear, 2 or 10 logarithmic with ticks
 * at powers of that base. fmt formats a tick value (NULL: %g). */
struct svg_axis {
	double lo, hi;
	int log;
	double p0, p1;
	const char *label;
	void (*fmt)(double v, char *buf, size_t len);
};
/* The pixel of value v (clamped to the axis' range). */
double svg_axis_pos(const struct svg_axis *a, double v);
/* Widens [lo, hi] to nice tick values (whole powers on a log axis, a 1-2-5 step on a linear one);
 * a log axis needs lo > 0. */
void svg_axis_nice(struct svg_axis *a);
/* Frame, grid lines, tick labels and axis labels of a plot with axes x (horizontal) and y. */
void svg_axes(FILE *f, const struct svg_axis *x, const struct svg_axis *y);

/* Tick formatters: bytes in binary units ("48 KiB"), a plain number ("%g"). */
void svg_fmt_bytes(double v, char *buf, size_t len);
void svg_fmt_num(double v, char *buf, size_t len);

/* A line chart: series of points (NaN y: a gap), x values marked by vertical lines, and points
 * marked by circles. */
struct svg_series {
	const char *name;
	const double *x, *y;
	size_t n;
	int dashed;
};
struct svg_mark {
	double x;
	const char *label;
	int os;          /* 1: an OS-reported value (dashed), 0: a measured one (solid) */
};
struct svg_point {
	double x, y;
	const char *label;
	const char *title; /* the point's tooltip where it says more than its label (NULL: the label) */
};
struct svg_chart {
	const char *label;              /* aria-label */
	double w, h;
	struct svg_axis x, y;           /* lo/hi NaN: from the data; p0/p1 set by the chart */
	const struct svg_series *series;
	size_t nseries;
	const struct svg_mark *marks;
	size_t nmarks;
	const struct svg_point *points;
	size_t npoints;
	/* lines y = slope * x (a Roofline's bandwidth ceilings) and y = c (compute ceilings),
	 * each clipped at the lowest horizontal one; labelled */
	const double *slopes, *levels;
	const char *const *slope_labels, *const *level_labels;
	size_t nslopes, nlevels;
};
void svg_chart_lines(FILE *f, const struct svg_chart *c);

/* Grouped bars: ngroups groups (labels) of nbars bars each (names, a legend), values[g * nbars + b]
 * (NaN: none), on a y axis from 0 (or log10 when logy) with the unit in ylabel. */
void svg_chart_bars(FILE *f, const char *label, const char *const *groups, size_t ngroups, const char *const *bars,
		    size_t nbars, const double *values, const char *ylabel, int logy);

/* A heatmap of n x m values (NaN: not measured, drawn hatched), rows and columns labelled, each
 * cell with its value (fmt "%.3g") and the unit in a colour legend. */
void svg_heatmap(FILE *f, const char *label, size_t n, size_t m, const double *values, const char *const *rows,
		 const char *const *cols, const char *unit, const char *corner);

/* Nested boxes (a topology): each box a label and up to two annotation lines, children side by
 * side inside it. */
struct svg_box {
	const char *label;
	const char *note;       /* NULL or a second line */
	const char *note2;      /* NULL or a third line (a measured value: class "meas") */
	const char *cls;        /* the box's class (NULL: "box") */
	struct svg_box *children;
	size_t nchildren;
};
void svg_boxes(FILE *f, const char *label, const struct svg_box *root);

#endif
