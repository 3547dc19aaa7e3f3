/* archscope model over a sweep of one constant: the text table of every size, and the plot of the
 * ECM transfers (stacked) and the Roofline against the swept constant. */
#include <math.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/model.h"
#include "common/atomicfile.h"
#include "report/plot.h"
#include "report/table.h"

void model_print_sweep(const struct model_opts *o, const struct model_run *run, double seconds)
{
	printf("kernel: %s  machine: %s  cache predictor: %s  cores: %d\n", o->kernel, o->machine,
	       o->req.predictor == MODEL_PRED_LC ? "LC" : "SIM", o->req.cores);
	int ecm_col = (o->req.models & MODEL_ECM) && run->have_ic, bench_col = (o->req.models & MODEL_BENCH) != 0;
	struct table *t = table_new(4 + ecm_col + bench_col, run->sweep->name, "ECMData cy/CL", "sum cy/CL", "Roofline cy/CL",
				    ecm_col ? "ECM cy/CL" : "measured cy/CL", "measured cy/CL");
	for (int i = 0; i < run->n; i++) {
		table_cell(t, "%lld", (long long)run->xs[i]);
		if (run->rows[i].have_ecm) {
			char s[256];
			size_t w = 0;
			for (int j = 0; j < run->rows[i].ecm.n && w < sizeof(s); j++)
				w += (size_t)snprintf(s + w, sizeof(s) - w, "%s%.2f", j ? " | " : "{ ", run->rows[i].ecm.t[j].cy);
			if (w < sizeof(s))
				snprintf(s + w, sizeof(s) - w, " }");
			table_cell(t, "%s", s);
			table_cell(t, "%.2f", run->rows[i].ecm.total_cy);
		} else {
			table_cell(t, "-");
			table_cell(t, "-");
		}
		if (run->rows[i].have_rl)
			table_cell(t, "%.2f", run->rows[i].rl.cy_per_cl);
		else
			table_cell(t, "-");
		if (ecm_col) {
			struct ecm_full f;
			model_eval_ecm(&run->rows[i], &f);
			table_cell(t, f.ok ? "%.2f" : "-", f.prediction);
		}
		if (bench_col) {
			if (run->rows[i].have_bench)
				table_cell(t, "%.2f", model_eval_bench_cy_per_cl(&run->rows[i]));
			else
				table_cell(t, "-");
		}
	}
	table_print(t, stdout, "");
	table_free(t);
	printf("%d sizes in %.3f s\n", run->n, seconds);
	if (!run->rows[0].have_ecm && run->rows[0].ecm_error[0])
		note("ECMData: %s", run->rows[0].ecm_error);
	if ((o->req.models & MODEL_INCORE) && !run->have_ic)
		note("in-core analysis: %s", run->ic_error);
	if (bench_col && !run->rows[0].have_bench)
		note("benchmark: %s", run->rows[0].bench_error);
}

int model_plot_sweep(const char *dir, const struct model_run *run, struct as_error *err)
{
	const char *sym = run->sweep->name;
	const struct model_eval *rows = run->rows;
	int rc = plot_dir_prepare(dir, err);
	if (rc)
		return rc;
	char path[4096];
	snprintf(path, sizeof(path), "%s/model-sweep.dat", dir);
	struct atomic_file af;
	if ((rc = atomic_file_open(&af, path, err)))
		return rc;
	FILE *f = af.fp;
	int nt = rows[0].have_ecm ? rows[0].ecm.n : 0;
	fprintf(f, "# %s", sym);
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
				    "set xlabel '%s'\nset ylabel 'core cycles per cache line of work'\n"
				    "set key outside right\nset style fill solid 0.5 noborder\nset yrange [0:*]\n"
				    "plot ",
				    sym);
	for (int j = nt - 1; j >= 0 && w < sizeof(body); j--)
		w += (size_t)snprintf(body + w, sizeof(body) - w,
				      "'model-sweep.dat' using 1:%d with filledcurves x1 title 'T_{%s}', ", j + 2,
				      rows[0].ecm.t[j].name);
	if (w < sizeof(body))
		snprintf(body + w, sizeof(body) - w,
			 "'model-sweep.dat' using 1:%d with lines lw 2 dt 2 lc 'black' title 'Roofline'\n", nt + 2);
	rc = plot_render(dir, "model-sweep", body, err);
	return rc < 0 ? rc : 0;
}

