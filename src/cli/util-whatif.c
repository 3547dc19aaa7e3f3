/* The Coz plot of a causal profile (program speedup against line speedup, one curve per site with
 * its interval), shared by `whatif --plot` and `stack --whatif --plot`. */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/util-whatif.h"
#include "common/atomicfile.h"
#include "report/plot.h"

/* DIR/whatif.dat (one block per site: line speedup, program speedup, ci) and the Coz plot. */
void cli_whatif_plot(const char *dir, const struct whatif_result *r, int crit)
{
	struct as_error err = { 0 };
	char path[4200], q[300];
	struct atomic_file af;
	snprintf(path, sizeof(path), "%s/whatif.dat", dir);
	if (plot_dir_prepare(dir, &err) != 0 || atomic_file_open(&af, path, &err) != 0) {
		note("%s", err.msg);
		return;
	}
	for (int s = 0; s < r->nsites; s++) {
		fprintf(af.fp, "# %s\n", plot_comment(r->sites[s].where, q, sizeof(q)));
		for (int k = 0; k < r->sites[s].npts; k++) {
			const struct whatif_curve_point *p = &r->sites[s].pts[k];
			if (p->program_speedup == p->program_speedup)
				fprintf(af.fp, "%.3f %.5f %.5f\n", 100 * p->line_speedup, 100 * p->program_speedup,
					p->ci == p->ci ? 100 * p->ci : 0.0);
		}
		fprintf(af.fp, "\n\n");
	}
	if (atomic_file_commit(&af, &err) != 0) {
		note("%s", err.msg);
		return;
	}
	char body[8192];
	int k = snprintf(body, sizeof(body), "set title 'causal profile'\nset xlabel 'line speedup (%%)'\n"
			 "set ylabel 'program speedup (%%)'\nset key outside bottom center noenhanced\nset grid\n"
			 "set xrange [0:100]\nplot ");
	for (int s = 0; s < r->nsites && k > 0 && (size_t)k < sizeof(body); s++) {
		char title[320];
		double cs = r->sites[s].crit_share;
		if (crit && cs == cs)
			snprintf(title, sizeof(title), "%s: on the critical path %.0f %% of the time", r->sites[s].where, 100 * cs);
		else
			snprintf(title, sizeof(title), "%s", r->sites[s].where);
		k += snprintf(body + k, sizeof(body) - (size_t)k, "%s'whatif.dat' index %d using 1:2:3 with yerrorlines title %s",
			      s ? ", " : "", s, plot_quote(title, q, sizeof(q)));
	}
	if (r->nsites == 0)
		snprintf(body + k, sizeof(body) - (size_t)k, "0 title 'no site'");
	cli_plot_done(plot_render(dir, "whatif", body, &err), dir, "whatif", &err);
}

