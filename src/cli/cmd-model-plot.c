/* archscope model --sweep --plot DIR: the sweep's data file and its picture, the ECM data
 * transfers stacked and the Roofline, in core cycles per cache line of work. */
#include <math.h>
#include <stdio.h>

#include "cli/cmd-model.h"
#include "common/atomicfile.h"
#include "report/plot.h"

int cli_model_plot_sweep(const char *dir, const struct model_run *run, struct as_error *err)
{
	const char *sym = run->sweep->name;
	const struct model_eval *rows = run->rows;
	int rc;
	char path[4096];
	snprintf(path, sizeof(path), "%s/model-sweep.dat", dir);
	struct atomic_file af;
	if ((rc = atomic_file_open(&af, path, err)))
		return rc;
	FILE *f = af.fp;
	int nt = rows[0].have_ecm ? rows[0].ecm.n : 0;
	char qs[300];
	fprintf(f, "# %s", plot_comment(sym, qs, sizeof(qs)));
	for (int j = 0; j < nt; j++)
		fprintf(f, " cum_%s", rows[0].ecm.t[j].name);
	fprintf(f, " roofline_cy_per_cl\n");
	for (int i = 0; i < run->n; i++) {
		fprintf(f, "%lld", (long long)run->xs[i]);
		double cum = 0;
		for (int j = 0; j < nt; j++) {
			cum += rows[i].have_ecm && j < rows[i].ecm.n ? rows[i].ecm.t[j].cy : 0;
			fprintf(f, " %.6g", cum);
		}
		fprintf(f, " %.6g\n", rows[i].have_rl ? rows[i].rl.cy_per_cl : NAN);
	}
	rc = atomic_file_commit(&af, err);
	if (rc)
		return rc;
	char body[4096];
	size_t w = (size_t)snprintf(body, sizeof(body),
				    "set title 'ECM data transfers (stacked) and Roofline'\n"
				    "set xlabel %s noenhanced\nset ylabel 'core cycles per cache line of work'\n"
				    "set key outside right\nset style fill solid 0.5 noborder\nset yrange [0:*]\n"
				    "plot ",
				    plot_quote(sym, qs, sizeof(qs)));
	for (int j = nt - 1; j >= 0 && w < sizeof(body); j--)
		w += (size_t)snprintf(body + w, sizeof(body) - w,
				      "'model-sweep.dat' using 1:%d with filledcurves x1 title 'T_{%s}', ", j + 2,
				      rows[0].ecm.t[j].name);
	if (w < sizeof(body))
		snprintf(body + w, sizeof(body) - w,
			 "'model-sweep.dat' using 1:%d with lines lw 2 dt 2 lc 'black' title 'Roofline'\n", nt + 2);
	return plot_render(dir, "model-sweep", body, err);
}
