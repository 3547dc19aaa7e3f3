/* The live view of `archscope numa load` on a terminal (thesis §4.4.3: Hydralisk's ncurses
 * screen): one line per flow with the bandwidth of the last second and a bar, redrawn each
 * interval. Used only when stdout is a terminal and the output is text. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd-numa.h"

struct cli_numa_view {
	SCREEN *scr;
	const struct numa_flow *f;
	int n, alone;
	double duration_s, top_gbs;
	double last[NUMA_MAX_FLOWS];
};

struct cli_numa_view *cli_numa_view_begin(const struct numa_flow *f, int n, double duration_s, int alone)
{
	struct cli_numa_view *v = calloc(1, sizeof(*v));
	if (!v)
		return NULL;
	v->scr = newterm(NULL, stdout, stdin);
	if (!v->scr) { /* no usable terminal: the caller prints lines instead */
		free(v);
		return NULL;
	}
	curs_set(0);
	v->f = f;
	v->n = n;
	v->alone = alone;
	v->duration_s = duration_s;
	for (int k = 0; k < n; k++)
		v->last[k] = NAN;
	return v;
}

void cli_numa_view_sample(struct cli_numa_view *v, const struct numa_load_sample *s)
{
	if (!v)
		return;
	for (int k = 0; k < v->n; k++) {
		v->last[k] = s->gbs[k];
		if (isfinite(s->gbs[k]) && s->gbs[k] > v->top_gbs)
			v->top_gbs = s->gbs[k];
	}
	erase();
	if (s->phase >= 0)
		mvprintw(0, 0, "archscope numa load: flow %d:%d:%d alone, %.0f of %.0f s", v->f[s->phase].src, v->f[s->phase].dst,
			 v->f[s->phase].threads, s->t_s, v->duration_s);
	else
		mvprintw(0, 0, "archscope numa load: all %d flows together, %.0f of %.0f s", v->n, s->t_s, v->duration_s);
	mvprintw(2, 0, "%-16s %12s", "flow", "GB/s");
	int width = COLS - 32;
	for (int k = 0; k < v->n; k++) {
		char name[32];
		snprintf(name, sizeof(name), "%d:%d:%d", v->f[k].src, v->f[k].dst, v->f[k].threads);
		if (isfinite(v->last[k])) {
			mvprintw(3 + k, 0, "%-16s %12.2f  ", name, v->last[k]);
			int bar = v->top_gbs > 0 && width > 0 ? (int)(v->last[k] / v->top_gbs * width) : 0;
			for (int b = 0; b < bar; b++)
				addch('#');
		} else {
			mvprintw(3 + k, 0, "%-16s %12s", name, "idle");
		}
	}
	mvprintw(4 + v->n, 0, "(GB/s of real bytes in the last interval; Ctrl-C ends the run and keeps the figures)");
	refresh();
}

void cli_numa_view_end(struct cli_numa_view *v)
{
	if (!v)
		return;
	endwin();
	delscreen(v->scr);
	free(v);
}
