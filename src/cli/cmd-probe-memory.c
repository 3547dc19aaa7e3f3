/* What the memory-hierarchy rows of the probe table share (cmd-probe-line.c, -caches.c, -assoc.c,
 * -tlb.c): a probe's failure, a curve saved as CSV and plotted, and the
 * line size the later probes space their slots by. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/cmd-probe.h"
#include "probe/line.h"
#include "report/emit.h"
#include "report/plot.h"

int cli_probe_fail(const char *probe, const struct as_error *err)
{
	progress_done();
	return error("%s", err->msg[0] ? err->msg : probe);
}

void cli_probe_curve_evidence(struct cli_probe_ctx *ctx, const char *name, const char *xname,
			      const struct machine_probes_curve *c, const char *xlabel, int logx)
{
	char header[96];
	snprintf(header, sizeof(header), "%s,min_ns,median_ns", xname);
	cli_probe_save_points(ctx, name, header, c);
	if (ctx->plot_dir) {
		char datapath[4096];
		snprintf(datapath, sizeof(datapath), "%s/%s.dat", ctx->plot_dir, name);
		struct atomic_file af;
		FILE *f = plot_data_open(datapath, &af);
		if (f) {
			for (int i = 0; i < c->n; i++)
				fprintf(f, "%.10g %.10g %.10g\n", c->pt[i].x, c->pt[i].min, c->pt[i].median);
			cli_probe_data_done(ctx, &af);
			cli_probe_plotf(ctx, name,
					"set title 'archscope probe %s'\nset xlabel '%s'\nset ylabel 'latency per access (ns)'\n"
					"%sset grid\nset key top left\n\n"
					"plot '%s.dat' using 1:2 with linespoints title 'min', "
					"'%s.dat' using 1:3 with lines dashtype 2 title 'median'",
					name, xlabel, logx ? "set logscale x 2\n" : "", name, name);
		}
	}
}

void cli_probe_need_line(struct cli_probe_ctx *ctx)
{
	struct as_error err = { 0 };
	int rc = probe_line_need(&ctx->env, cli_probe_progress, &err);
	if (rc < 0)
		cli_probe_fail("line", &err);
	else
		progress_done();
	if (rc != 0)
		note("no cache line size could be measured; assuming 64 B for the slot spacing");
}
