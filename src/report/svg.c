/* The SVG writer and the report's figures (see svg.h). */
#include "report/svg.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/buffer.h"

#define NSTYLES 8
#define CHAR_W 6.6 /* about the width of a character of the 12 px sans-serif the page uses */

void svg_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			/* control characters are not allowed in XML 1.0 */
			if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t')
				fputc(' ', f);
			else
				fputc(*s, f);
		}
	}
}

void svg_open(FILE *f, double w, double h, const char *label)
{
	/* "wide": on a phone the page keeps it at a legible size in a scrolling box (CSS) */
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\"%s "
		   "role=\"img\" aria-label=\"", w, h, w, h, w >= 600 ? " class=\"wide\"" : "");
	svg_escape(f, label);
	fputs("\"><title>", f);
	svg_escape(f, label);
	fputs("</title>\n", f);
}

void svg_close(FILE *f)
{
	fputs("</svg>\n", f);
}

static void cls_attr(FILE *f, const char *cls)
{
	if (cls && *cls) {
		fputs(" class=\"", f);
		svg_escape(f, cls);
		fputc('"', f);
	}
}

void svg_text(FILE *f, double x, double y, const char *cls, const char *anchor, const char *text)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\"", x, y);
	cls_attr(f, cls);
	if (anchor && strcmp(anchor, "start") != 0)
		fprintf(f, " text-anchor=\"%s\"", anchor);
	fputc('>', f);
	svg_escape(f, text);
	fputs("</text>\n", f);
}

void svg_textf(FILE *f, double x, double y, const char *cls, const char *anchor, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	svg_text(f, x, y, cls, anchor, buf);
}

void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *cls)
{
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"", x1, y1, x2, y2);
	cls_attr(f, cls);
	fputs("/>\n", f);
}

/* The end of an element's start tag: "/>" without a title, else its <title> and the end tag. */
static void end_titled(FILE *f, const char *elem, const char *title)
{
	if (!title) {
		fputs("/>\n", f);
		return;
	}
	fputs("><title>", f);
	svg_escape(f, title);
	fprintf(f, "</title></%s>\n", elem);
}

void svg_rect(FILE *f, double x, double y, double w, double h, const char *cls, const char *fill, const char *title)
{
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"", x, y, w > 0 ? w : 0, h > 0 ? h : 0);
	cls_attr(f, cls);
	if (fill)
		fprintf(f, " fill=\"%s\"", fill);
	end_titled(f, "rect", title);
}

void svg_circle(FILE *f, double x, double y, double r, const char *cls, const char *title)
{
	fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"", x, y, r);
	cls_attr(f, cls);
	end_titled(f, "circle", title);
}

static double text_w(const char *s)
{
	return s ? CHAR_W * (double)strlen(s) : 0;
}

/* --- axes ---------------------------------------------------------------------------------- */

static double axis_t(const struct svg_axis *a, double v)
{
	double lo = a->lo, hi = a->hi;
	if (a->log) {
		if (!(v > 0))
			return 0;
		v = log(v);
		lo = log(lo);
		hi = log(hi);
	}
	if (!(hi > lo))
		return 0.5;
	double t = (v - lo) / (hi - lo);
	return t < 0 ? 0 : t > 1 ? 1 : t;
}

double svg_axis_pos(const struct svg_axis *a, double v)
{
	return a->p0 + axis_t(a, v) * (a->p1 - a->p0);
}

/* 1, 2 or 5 times a power of ten, at least x. */
static double nice_step(double x)
{
	if (!(x > 0))
		return 1;
	double p = pow(10, floor(log10(x)));
	double m = x / p;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

void svg_axis_nice(struct svg_axis *a)
{
	if (!isfinite(a->lo) || !isfinite(a->hi)) {
		a->lo = a->log ? 1 : 0;
		a->hi = a->log ? a->log : 1;
	}
	if (a->hi < a->lo) {
		double t = a->lo;
		a->lo = a->hi;
		a->hi = t;
	}
	if (a->log) {
		double b = a->log;
		if (!(a->lo > 0))
			a->lo = a->hi > 0 ? a->hi / b : 1;
		if (!(a->hi > 0))
			a->hi = a->lo * b;
		a->lo = pow(b, floor(log(a->lo) / log(b) + 1e-9));
		a->hi = pow(b, ceil(log(a->hi) / log(b) - 1e-9));
		if (a->hi <= a->lo)
			a->hi = a->lo * b;
		return;
	}
	if (a->hi == a->lo)
		a->hi = a->lo + (a->lo ? fabs(a->lo) : 1);
	double step = nice_step((a->hi - a->lo) / 5);
	a->lo = floor(a->lo / step + 1e-9) * step;
	a->hi = ceil(a->hi / step - 1e-9) * step;
}

/* Tick values of an axis (at most max); returns how many. */
static size_t axis_ticks(const struct svg_axis *a, double *t, size_t max)
{
	size_t n = 0;
	if (a->log) {
		double b = a->log;
		int k0 = (int)floor(log(a->lo) / log(b) + 1e-9), k1 = (int)ceil(log(a->hi) / log(b) - 1e-9);
		int every = 1;
		while ((k1 - k0) / every + 1 > (int)max || (k1 - k0) / every + 1 > 9)
			every++;
		for (int k = k0; k <= k1 && n < max; k++)
			if ((k - k0) % every == 0)
				t[n++] = pow(b, k);
		return n;
	}
	double step = nice_step((a->hi - a->lo) / 5);
	for (double v = a->lo; v <= a->hi + step * 1e-6 && n < max; v += step)
		t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	return n;
}

void svg_fmt_bytes(double v, char *buf, size_t len)
{
	if (!(v >= 1)) {
		snprintf(buf, len, "%g B", v);
		return;
	}
	buffer_format_size((size_t)(v + 0.5), buf, len);
}

void svg_fmt_num(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%g", v);
}

void svg_axes(FILE *f, const struct svg_axis *x, const struct svg_axis *y)
{
	double t[32];
	char buf[64];
	size_t n = axis_ticks(x, t, 32);
	for (size_t i = 0; i < n; i++) {
		double px = svg_axis_pos(x, t[i]);
		svg_line(f, px, y->p0, px, y->p1, "grid");
		(x->fmt ? x->fmt : svg_fmt_num)(t[i], buf, sizeof(buf));
		svg_text(f, px, y->p0 + 15, "tick", "middle", buf);
	}
	n = axis_ticks(y, t, 32);
	for (size_t i = 0; i < n; i++) {
		double py = svg_axis_pos(y, t[i]);
		svg_line(f, x->p0, py, x->p1, py, "grid");
		(y->fmt ? y->fmt : svg_fmt_num)(t[i], buf, sizeof(buf));
		svg_text(f, x->p0 - 5, py + 4, "tick", "end", buf);
	}
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"ax\"/>\n", x->p0, y->p1,
		x->p1 - x->p0, y->p0 - y->p1);
	if (x->label)
		svg_text(f, (x->p0 + x->p1) / 2, y->p0 + 33, "lbl", "middle", x->label);
	if (y->label) {
		double cx = x->p0 - 48, cy = (y->p0 + y->p1) / 2;
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"lbl\" text-anchor=\"middle\" transform=\"rotate(-90 %.1f %.1f)\">",
			cx, cy, cx, cy);
		svg_escape(f, y->label);
		fputs("</text>\n", f);
	}
}

/* --- line charts ------------------------------------------------------------------------- */

static void range_add(double *lo, double *hi, double v, int log)
{
	if (!isfinite(v) || (log && !(v > 0)))
		return;
	if (!isfinite(*lo) || v < *lo)
		*lo = v;
	if (!isfinite(*hi) || v > *hi)
		*hi = v;
}

/* The width of one legend entry: its swatch, its name and the gap after it. */
static double legend_w(const char *name)
{
	return 26 + CHAR_W * (double)strlen(name) + 14;
}

/* The legend of these names between x and right, from baseline y, wrapped into rows; f NULL only
 * counts them. Returns the rows it takes. */
static int legend(FILE *f, double x, double y, double right, const char *const *names, const int *dashed, size_t n)
{
	double cx = x;
	int rows = 1;
	for (size_t i = 0; i < n; i++) {
		if (!names[i])
			continue;
		double w = legend_w(names[i]);
		if (cx + w > right && cx > x) {
			cx = x;
			y += 16;
			rows++;
		}
		if (f) {
			char cls[16];
			snprintf(cls, sizeof(cls), "s%zu%s", i % NSTYLES, dashed && dashed[i] ? " dash" : "");
			svg_line(f, cx, y - 4, cx + 20, y - 4, cls);
			svg_text(f, cx + 24, y, "leg", "start", names[i]);
		}
		cx += w;
	}
	return rows;
}

void svg_chart_lines(FILE *f, const struct svg_chart *c)
{
	struct svg_axis x = c->x, y = c->y;
	int auto_x = !isfinite(x.lo) || !isfinite(x.hi), auto_y = !isfinite(y.lo) || !isfinite(y.hi);
	if (auto_x || auto_y) {
		double xlo = NAN, xhi = NAN, ylo = NAN, yhi = NAN;
		for (size_t s = 0; s < c->nseries; s++)
			for (size_t i = 0; i < c->series[s].n; i++) {
				if (!isfinite(c->series[s].y[i]))
					continue;
				range_add(&xlo, &xhi, c->series[s].x[i], x.log);
				range_add(&ylo, &yhi, c->series[s].y[i], y.log);
			}
		for (size_t i = 0; i < c->nmarks; i++)
			range_add(&xlo, &xhi, c->marks[i].x, x.log);
		for (size_t i = 0; i < c->npoints; i++) {
			range_add(&xlo, &xhi, c->points[i].x, x.log);
			range_add(&ylo, &yhi, c->points[i].y, y.log);
		}
		for (size_t i = 0; i < c->nlevels; i++)
			range_add(&ylo, &yhi, c->levels[i], y.log);
		if (auto_x) {
			x.lo = xlo;
			x.hi = xhi;
		}
		if (auto_y) {
			y.lo = ylo;
			y.hi = yhi;
		}
	}
	svg_axis_nice(&x);
	svg_axis_nice(&y);
	/* the legend: the series, then the slopes; the plot starts below its rows */
	const char *names[64];
	int dashed[64];
	size_t nn = 0, named = 0;
	for (size_t s = 0; s < c->nseries && nn < 64; s++, nn++) {
		names[nn] = c->series[s].name;
		dashed[nn] = c->series[s].dashed;
	}
	for (size_t i = 0; i < c->nslopes && nn < 64; i++, nn++) {
		names[nn] = c->slope_labels ? c->slope_labels[i] : NULL;
		dashed[nn] = 0;
	}
	for (size_t i = 0; i < nn; i++)
		named += names[i] != NULL;
	x.p0 = 68;
	x.p1 = c->w - 16;
	double top = named ? 14 + 16 * legend(NULL, x.p0, 0, x.p1, names, NULL, nn) : 12;
	y.p0 = c->h - 44;
	y.p1 = top;
	svg_open(f, c->w, c->h, c->label);
	svg_axes(f, &x, &y);

	/* marked x values: measured (solid) and OS-reported (dashed), labelled at the top */
	for (size_t i = 0; i < c->nmarks; i++) {
		const struct svg_mark *m = &c->marks[i];
		if (!isfinite(m->x) || m->x < x.lo || m->x > x.hi)
			continue;
		double px = svg_axis_pos(&x, m->x);
		svg_line(f, px, y.p0, px, y.p1, m->os ? "mark os" : "mark meas");
		if (m->label) {
			/* measured labels left of their line reading upwards, OS-reported ones right of it
			 * reading downwards, both from the top: the two of one level never overlap */
			double ly = y.p1 + 4, lx = m->os ? px + 4 : px - 4;
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"mlbl%s\" text-anchor=\"%s\" transform=\"rotate(%d %.1f %.1f)\">",
				lx, ly, m->os ? " os" : " meas", m->os ? "start" : "end", m->os ? 90 : -90, lx, ly);
			svg_escape(f, m->label);
			fputs("</text>\n", f);
		}
	}
	/* ceilings: y = level (from where the steepest slope meets it) and y = slope * x */
	double top_level = NAN, max_slope = NAN;
	for (size_t i = 0; i < c->nlevels; i++)
		if (isfinite(c->levels[i]) && !(c->levels[i] <= top_level))
			top_level = c->levels[i];
	for (size_t i = 0; i < c->nslopes; i++)
		if (isfinite(c->slopes[i]) && !(c->slopes[i] <= max_slope))
			max_slope = c->slopes[i];
	for (size_t i = 0; i < c->nlevels; i++) {
		double lv = c->levels[i];
		if (!isfinite(lv))
			continue;
		double x0 = isfinite(max_slope) && max_slope > 0 ? lv / max_slope : x.lo;
		if (x0 < x.lo)
			x0 = x.lo;
		double py = svg_axis_pos(&y, lv), px0 = svg_axis_pos(&x, x0);
		svg_line(f, px0, py, x.p1, py, lv == top_level ? "ceil" : "ceil dash");
		if (c->level_labels && c->level_labels[i])
			svg_text(f, x.p1 - 4, py - 4, "clbl", "end", c->level_labels[i]);
	}
	for (size_t i = 0; i < c->nslopes; i++) {
		double s = c->slopes[i];
		if (!(s > 0))
			continue;
		double x0 = x.lo, x1 = x.hi;
		if (x.log && y.log && x0 * s < y.lo)
			x0 = y.lo / s;
		if (isfinite(top_level) && x1 * s > top_level)
			x1 = top_level / s;
		if (!(x1 > x0))
			continue;
		char cls[24];
		snprintf(cls, sizeof(cls), "roof s%zu", i % NSTYLES);
		double ax = svg_axis_pos(&x, x0), ay = svg_axis_pos(&y, x0 * s);
		double bx = svg_axis_pos(&x, x1), by = svg_axis_pos(&y, x1 * s);
		const char *name = c->slope_labels ? c->slope_labels[i] : NULL;
		if (!name) {
			svg_line(f, ax, ay, bx, by, cls);
			continue;
		}
		/* the ceiling named on its line too, not only in the legend: a reader (and a test) can
		 * tell which line a point's label names */
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"", ax, ay, bx, by);
		cls_attr(f, cls);
		end_titled(f, "line", name);
	}
	/* series, split at missing values */
	for (size_t s = 0; s < c->nseries; s++) {
		const struct svg_series *sr = &c->series[s];
		int open = 0;
		for (size_t i = 0; i < sr->n; i++) {
			int ok = isfinite(sr->x[i]) && isfinite(sr->y[i]) && (!x.log || sr->x[i] > 0) && (!y.log || sr->y[i] > 0);
			if (!ok) {
				if (open)
					fputs("\"/>\n", f);
				open = 0;
				continue;
			}
			if (!open) {
				fprintf(f, "<polyline class=\"s%zu%s\" points=\"", s % NSTYLES, sr->dashed ? " dash" : "");
				open = 1;
			}
			fprintf(f, "%.1f,%.1f ", svg_axis_pos(&x, sr->x[i]), svg_axis_pos(&y, sr->y[i]));
		}
		if (open)
			fputs("\"/>\n", f);
	}
	for (size_t i = 0; i < c->npoints; i++) {
		const struct svg_point *p = &c->points[i];
		if (!isfinite(p->x) || !isfinite(p->y))
			continue;
		double px = svg_axis_pos(&x, p->x), py = svg_axis_pos(&y, p->y);
		svg_circle(f, px, py, 4, "pt", p->title ? p->title : p->label);
		if (p->label) {
			/* below and right of the point (a level's step climbs from it), or left of it near
			 * the right edge */
			int right = px + 8 + text_w(p->label) > x.p1;
			svg_text(f, right ? px - 6 : px + 6, right ? py - 7 : py + 15, "plbl", right ? "end" : "start", p->label);
		}
	}
	if (named)
		legend(f, x.p0, 14, x.p1, names, dashed, nn);
	svg_close(f);
}

/* --- bars ---------------------------------------------------------------------------------- */

void svg_chart_bars(FILE *f, const char *label, const char *const *groups, size_t ngroups, const char *const *bars,
		    size_t nbars, const double *values, const char *ylabel, int logy)
{
	double w = 640, h = 300;
	struct svg_axis y = { .lo = logy ? NAN : 0, .hi = NAN, .log = logy ? 10 : 0, .label = ylabel };
	for (size_t i = 0; i < ngroups * nbars; i++)
		range_add(&y.lo, &y.hi, values[i], y.log);
	if (!logy)
		y.lo = 0;
	if (isfinite(y.hi) && !logy)
		y.hi *= 1.12; /* room for the value labels */
	svg_axis_nice(&y);
	y.p0 = h - 44;
	y.p1 = 30;
	double x0 = 68, x1 = w - 16, band = (x1 - x0) / (double)(ngroups ? ngroups : 1);
	svg_open(f, w, h, label);
	struct svg_axis x = { .lo = 0, .hi = 1, .p0 = x0, .p1 = x1 };
	/* the y grid and labels; no x ticks: group labels instead */
	double t[32];
	char buf[64];
	size_t n = axis_ticks(&y, t, 32);
	for (size_t i = 0; i < n; i++) {
		double py = svg_axis_pos(&y, t[i]);
		svg_line(f, x0, py, x1, py, "grid");
		svg_fmt_num(t[i], buf, sizeof(buf));
		svg_text(f, x0 - 5, py + 4, "tick", "end", buf);
	}
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"ax\"/>\n", x.p0, y.p1, x.p1 - x.p0,
		y.p0 - y.p1);
	if (ylabel) {
		double cx = x0 - 48, cy = (y.p0 + y.p1) / 2;
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"lbl\" text-anchor=\"middle\" transform=\"rotate(-90 %.1f %.1f)\">",
			cx, cy, cx, cy);
		svg_escape(f, ylabel);
		fputs("</text>\n", f);
	}
	double bw = band * 0.8 / (double)(nbars ? nbars : 1);
	for (size_t g = 0; g < ngroups; g++) {
		double gx = x0 + band * (double)g + band * 0.1;
		svg_text(f, x0 + band * ((double)g + 0.5), y.p0 + 16, "tick", "middle", groups[g]);
		for (size_t b = 0; b < nbars; b++) {
			double v = values[g * nbars + b];
			if (!isfinite(v) || (logy && !(v > 0)))
				continue;
			double py = svg_axis_pos(&y, v);
			char cls[8], title[160];
			snprintf(cls, sizeof(cls), "f%zu", b % NSTYLES);
			snprintf(title, sizeof(title), "%s, %s: %.3g %s", groups[g], bars[b], v, ylabel ? ylabel : "");
			svg_rect(f, gx + bw * (double)b, py, bw * 0.92, y.p0 - py, cls, NULL, title);
			if (bw >= 18) {
				snprintf(buf, sizeof(buf), "%.3g", v);
				svg_text(f, gx + bw * ((double)b + 0.46), py - 3, "val", "middle", buf);
			}
		}
	}
	/* legend of the bars */
	double lx = x0;
	for (size_t b = 0; b < nbars; b++) {
		char cls[8];
		snprintf(cls, sizeof(cls), "f%zu", b % NSTYLES);
		svg_rect(f, lx, 8, 12, 12, cls, NULL, NULL);
		svg_text(f, lx + 16, 18, "leg", "start", bars[b]);
		lx += 16 + CHAR_W * (double)strlen(bars[b]) + 14;
	}
	svg_close(f);
}

/* --- heatmaps ------------------------------------------------------------------------------ */

/* viridis at t in [0, 1] */
static void heat_color(double t, char *buf, size_t len)
{
	static const unsigned char v[9][3] = { { 68, 1, 84 },	 { 71, 44, 122 }, { 59, 81, 139 },
					       { 44, 113, 142 }, { 33, 144, 141 }, { 39, 173, 129 },
					       { 92, 200, 99 },	 { 170, 220, 50 }, { 253, 231, 37 } };
	if (!isfinite(t))
		t = 0;
	t = t < 0 ? 0 : t > 1 ? 1 : t;
	double p = t * 8;
	int i = (int)p;
	if (i >= 8)
		i = 7;
	double u = p - i;
	snprintf(buf, len, "#%02x%02x%02x", (int)(v[i][0] + u * (v[i + 1][0] - v[i][0]) + 0.5),
		 (int)(v[i][1] + u * (v[i + 1][1] - v[i][1]) + 0.5), (int)(v[i][2] + u * (v[i + 1][2] - v[i][2]) + 0.5));
}

void svg_heatmap(FILE *f, const char *label, size_t n, size_t m, const double *values, const char *const *rows,
		 const char *const *cols, const char *unit, const char *corner)
{
	double cell = m ? 480.0 / (double)m : 40;
	cell = cell < 12 ? 12 : cell > 56 ? 56 : cell;
	double left = 16, top = corner ? 52 : 36, legend_w = 90;
	for (size_t i = 0; i < n; i++)
		if (text_w(rows[i]) + 12 > left)
			left = text_w(rows[i]) + 12;
	double w = left + cell * (double)m + legend_w, h = top + cell * (double)n + 16;
	if (h < 150)
		h = 150;
	double lo = NAN, hi = NAN;
	for (size_t i = 0; i < n * m; i++)
		range_add(&lo, &hi, values[i], 0);
	svg_open(f, w, h, label);
	if (corner)
		svg_text(f, 4, 14, "tick", "start", corner);
	int small = cell < 30;
	for (size_t j = 0; j < m; j++)
		if (!small || m <= 24 || j % (m / 16 + 1) == 0)
			svg_text(f, left + cell * ((double)j + 0.5), top - 6, "tick", "middle", cols[j]);
	for (size_t i = 0; i < n; i++) {
		double y = top + cell * (double)i;
		if (!small || n <= 24 || i % (n / 16 + 1) == 0)
			svg_text(f, left - 5, y + cell / 2 + 4, "tick", "end", rows[i]);
		for (size_t j = 0; j < m; j++) {
			double v = values[i * m + j], x = left + cell * (double)j;
			char title[160], color[16];
			if (!isfinite(v)) {
				snprintf(title, sizeof(title), "%s → %s: not measured", rows[i], cols[j]);
				svg_rect(f, x, y, cell, cell, "none", NULL, title);
				continue;
			}
			heat_color(hi > lo ? (v - lo) / (hi - lo) : 0.5, color, sizeof(color));
			snprintf(title, sizeof(title), "%s → %s: %.4g %s", rows[i], cols[j], v, unit ? unit : "");
			svg_rect(f, x, y, cell, cell, "cell", color, title);
			if (cell >= 30) {
				double t = hi > lo ? (v - lo) / (hi - lo) : 0.5;
				svg_textf(f, x + cell / 2, y + cell / 2 + 4, t > 0.6 ? "cval dark" : "cval", "middle", "%.3g", v);
			}
		}
	}
	/* the colour legend */
	double lx = left + cell * (double)m + 16, ly = top, lh = (h - top - 24);
	for (int k = 0; k < 16; k++) {
		char color[16];
		heat_color(1.0 - k / 15.0, color, sizeof(color));
		svg_rect(f, lx, ly + lh * k / 16.0, 14, lh / 16.0 + 0.5, NULL, color, NULL);
	}
	if (isfinite(lo)) {
		svg_textf(f, lx + 18, ly + 10, "tick", "start", "%.3g", hi);
		svg_textf(f, lx + 18, ly + lh, "tick", "start", "%.3g", lo);
	}
	if (unit && *unit)
		svg_text(f, lx, ly - 8, "tick", "start", unit);
	svg_close(f);
}

/* --- nested boxes ------------------------------------------------------------------------ */

#define BOX_PAD 6.0
#define BOX_LINE 15.0

static int box_lines(const struct svg_box *b)
{
	return 1 + (b->note != NULL) + (b->note2 != NULL);
}

/* The size of a box with its children. */
static void box_size(const struct svg_box *b, double *w, double *h)
{
	double tw = text_w(b->label);
	if (text_w(b->note) > tw)
		tw = text_w(b->note);
	if (text_w(b->note2) > tw)
		tw = text_w(b->note2);
	double cw = 0, ch = 0;
	for (size_t i = 0; i < b->nchildren; i++) {
		double w1, h1;
		box_size(&b->children[i], &w1, &h1);
		cw += w1 + (i ? BOX_PAD : 0);
		if (h1 > ch)
			ch = h1;
	}
	*w = (cw > tw ? cw : tw) + 2 * BOX_PAD;
	*h = BOX_LINE * box_lines(b) + 6 + (b->nchildren ? ch + BOX_PAD : 0);
}

static void box_draw(FILE *f, const struct svg_box *b, double x, double y, double w, double h)
{
	fprintf(f, "<g><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"3\"", x, y, w, h);
	cls_attr(f, b->cls ? b->cls : "box");
	fputs("/>\n", f);
	double ty = y + BOX_LINE;
	svg_text(f, x + BOX_PAD, ty, "blbl", "start", b->label);
	if (b->note) {
		ty += BOX_LINE;
		svg_text(f, x + BOX_PAD, ty, "bnote", "start", b->note);
	}
	if (b->note2) {
		ty += BOX_LINE;
		svg_text(f, x + BOX_PAD, ty, "bnote meas", "start", b->note2);
	}
	double cx = x + BOX_PAD, cy = ty + 6;
	/* children share the inner height; the widths they need, spread over the room there is */
	double need = 0;
	for (size_t i = 0; i < b->nchildren; i++) {
		double w1, h1;
		box_size(&b->children[i], &w1, &h1);
		need += w1;
	}
	double room = w - 2 * BOX_PAD - BOX_PAD * (double)(b->nchildren ? b->nchildren - 1 : 0);
	double scale = need > 0 && room > need ? room / need : 1;
	for (size_t i = 0; i < b->nchildren; i++) {
		double w1, h1;
		box_size(&b->children[i], &w1, &h1);
		box_draw(f, &b->children[i], cx, cy, w1 * scale, y + h - BOX_PAD - cy);
		cx += w1 * scale + BOX_PAD;
	}
	fputs("</g>\n", f);
}

void svg_boxes(FILE *f, const char *label, const struct svg_box *root)
{
	double w, h;
	box_size(root, &w, &h);
	if (w < 320)
		w = 320;
	svg_open(f, w + 2, h + 2, label);
	box_draw(f, root, 1, 1, w, h);
	svg_close(f);
}
