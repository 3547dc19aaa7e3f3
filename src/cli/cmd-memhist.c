/* archscope memhist: histograms of load latency (cycles) split by data source (L1, fill buffer,
 * L2, L3, local and remote DRAM, remote caches), counted by samples or by cost (samples x latency),
 * from live PEBS/IBS sampling of a program or from recorded samples (the thesis' Memhist). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/parse-options.h"
#include "common/spawn.h"
#include "machine/result-stat-memhist.h"
#include "measure/exec.h"
#include "measure/memsample.h"
#include "report/emit.h"
#include "report/plot.h"

static const char *const memhist_modes[] = { "count", "cost", NULL };

struct memhist_opts {
	int mode;               /* 0 count, 1 cost */
	const char *bins;
	const char *from;
	const char *thresholds; /* threshold cycling: ldlat thresholds, one run each */
	int ldlat;
	uint64_t period;
	int json;
	const char *plot;
};

struct memhist_report {
	const struct memhist_opts *o;
	const char *source;          /* "file", "live" or "thresholds" */
	char method[160];
	struct memsample_set set;
	struct memsample_hist h;
	int status;                  /* the program's exit status (live) */
	int nthr;                    /* threshold cycling */
	double thr[MEMSAMPLE_BINS_MAX], above[MEMSAMPLE_BINS_MAX], interval[MEMSAMPLE_BINS_MAX];
	int negative;
};

static void memhist_bin_label(const struct memsample_bins *b, int i, char *buf, size_t len)
{
	if (i + 1 < b->n)
		snprintf(buf, len, "%g-%g", b->edge[i], b->edge[i + 1]);
	else
		snprintf(buf, len, ">= %g", b->edge[i]);
}

static void memhist_render(struct emit *e, const struct memhist_report *r)
{
	const struct memhist_opts *o = r->o;
	emit_string(e, MH_KEY(SOURCE), "source", r->source);
	emit_string(e, MH_KEY(METHOD), "method", r->method);
	if (o->from)
		emit_string(e, MH_KEY(FILE), "file", o->from);
	else
		emit_int(e, MH_KEY(EXIT_STATUS), "exit status", r->status, NULL);
	if (r->nthr) {
		/* threshold cycling: loads per latency interval, no data source */
		emit_table_begin(e, MH_KEY(THRESHOLDS), "loads per latency interval (differences between threshold runs)");
		for (int i = 0; i < r->nthr; i++) {
			emit_row_begin(e);
			emit_number(e, MH_KEY(TH_FROM), "from", r->thr[i], "cy", "%g");
			emit_number(e, MH_KEY(TH_TO), "to", i + 1 < r->nthr ? r->thr[i + 1] : NAN, "cy", "%g");
			emit_number(e, MH_KEY(TH_ABOVE), "loads above from", r->above[i], NULL, "%.0f");
			emit_number(e, MH_KEY(TH_LOADS), "loads in interval", r->interval[i], NULL, "%.0f");
			emit_row_end(e);
		}
		emit_table_end(e);
		emit_int(e, MH_KEY(NEGATIVE), "negative intervals", r->negative, NULL);
		return;
	}
	const struct memsample_hist *h = &r->h;
	const char *unit = h->cost ? "cy" : NULL;
	emit_string(e, MH_KEY(MODE), "mode", memhist_modes[h->cost]);
	emit_int(e, MH_KEY(SAMPLES), "samples", (long long)r->set.n, NULL);
	if (!o->from)
		emit_int(e, MH_KEY(LOST), "samples lost", (long long)r->set.lost, NULL);
	emit_number(e, MH_KEY(BINNED), "in the histogram", h->samples, NULL, "%.0f");
	emit_table_begin(e, MH_KEY(HISTOGRAM), h->cost ? "latency cost (samples x latency) by data source"
						    : "samples by latency and data source");
	for (int i = 0; i < h->bins.n; i++) {
		emit_row_begin(e);
		char lab[48];
		memhist_bin_label(&h->bins, i, lab, sizeof(lab));
		emit_text(e, "latency cy", "%s", lab);
		emit_number(e, MH_KEY(HI_FROM), NULL, h->bins.edge[i], "cy", NULL);
		emit_number(e, MH_KEY(HI_TO), NULL, i + 1 < h->bins.n ? h->bins.edge[i + 1] : NAN, "cy", NULL);
		double all = 0;
		for (int s = 0; s < MEMSAMPLE_NSRC; s++) {
			emit_number(e, memsample_src_key(s), memsample_src_name(s), h->v[i][s], unit, "%.0f");
			all += h->v[i][s];
		}
		emit_number(e, MH_KEY(HI_ALL), "all", all, unit, "%.0f");
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_object_begin(e, MH_KEY(TOTALS), "totals by data source");
	for (int s = 0; s < MEMSAMPLE_NSRC; s++)
		emit_number(e, memsample_src_key(s), memsample_src_name(s), h->total[s], unit, "%.0f");
	emit_object_end(e);
}

/* --plot DIR: stacked bars of the histogram, one colour per data source. */
static void memhist_plot(const struct memhist_report *r, const char *dir)
{
	struct as_error err = { 0 };
	const struct memsample_hist *h = &r->h;
	char path[4096];
	snprintf(path, sizeof(path), "%s/memhist.dat", dir);
	struct atomic_file af;
	FILE *f = plot_data_open(path, &af);
	for (int i = 0; f && i < h->bins.n; i++) {
		char lab[48];
		memhist_bin_label(&h->bins, i, lab, sizeof(lab));
		fprintf(f, "\"%s\"", lab);
		for (int s = 0; s < MEMSAMPLE_NSRC; s++)
			fprintf(f, " %.6g", h->v[i][s]);
		fprintf(f, "\n");
	}
	if (!f || plot_data_close(&af) != 0) {
		warning("cannot write '%s': %s: no picture", path, strerror(errno));
		return;
	}
	char body[2048];
	int len = snprintf(body, sizeof(body),
			   "set title 'archscope memhist: %s by load latency and data source'\n"
			   "set xlabel 'latency (cycles)'\nset ylabel '%s'\nset style data histograms\n"
			   "set style histogram rowstacked\nset style fill solid 0.8 border -1\nset boxwidth 0.8\n"
			   "set xtics rotate by -45\nset key outside right\nplot ",
			   h->cost ? "cost" : "samples", h->cost ? "samples x latency (cycles)" : "samples");
	for (int s = 0; s < MEMSAMPLE_NSRC && len < (int)sizeof(body); s++) {
		char q[64];
		len += snprintf(body + len, sizeof(body) - (size_t)len, "%s'memhist.dat' using %d%s title %s",
				s ? ", " : "", s + 2, s ? "" : ":xtic(1)", plot_quote(memsample_src_name(s), q, sizeof(q)));
	}
	int pr = plot_render(dir, "memhist", body, &err);
	cli_plot_done(pr, dir, "memhist", &err);
}

static void memhist_tick(void *ctx, double t_s, size_t samples)
{
	(void)ctx;
	progress("memhist: %.0f s, %zu samples", t_s, samples);
}

/* Threshold cycling: one run of CMD per threshold of b (parsed with the other options, before
 * anything is tried). 0, or an exit code. */
static int memhist_thresholds(struct memhist_report *r, const struct memsample_bins *b, char **argv)
{
	struct as_error err = { 0 };
	r->nthr = b->n;
	for (int i = 0; i < b->n; i++) {
		r->thr[i] = b->edge[i];
		progress("memhist: run %d of %d, loads above %g cycles", i + 1, b->n, b->edge[i]);
		if (memsample_live_count_above(argv, (int)b->edge[i], &r->above[i], &r->status, &err) != 0) {
			progress_done();
			return error_err(&err), EXIT_FAIL;
		}
	}
	progress_done();
	memsample_threshold_diff(r->above, r->nthr, r->interval, &r->negative);
	if (r->negative)
		note("%d intervals came out negative: the runs differed more than those intervals hold", r->negative);
	snprintf(r->method, sizeof(r->method), "threshold cycling: one run per ldlat threshold, differences between them");
	return 0;
}

static const char *const memhist_usage[] = {
	"archscope memhist [--mode count|cost] [--bins SPEC] [--json] [--plot DIR] -- CMD [ARG...]",
	"archscope memhist [--mode count|cost] [--bins SPEC] [--json] [--plot DIR] --from FILE",
	"archscope memhist --thresholds T1,T2,... [--json] -- CMD [ARG...]",
	NULL,
};

static const struct opt_cmd memhist_cmd = {
	.name = "memhist",
	.usage = memhist_usage,
	.description =
		"Samples the loads of CMD with their latency in cycles and their data source (Intel PEBS load\n"
		"latency, AMD IBS op) and prints a histogram of latency split by data source: L1, fill buffer\n"
		"(LFB), L2, L3, local DRAM, remote DRAM, remote cache, other. --mode cost weighs each sample\n"
		"by its latency. --from reads recorded samples instead. The thesis' Memhist.\n",
	.epilog = "FILE: JSON lines {\"latency_cy\": N, \"data_src\": N or \"0xHEX\"}, or the output of\n"
		  "`perf script -F data_src,weight` after `perf mem record`. SPEC: log2 (0, 4, 8, ..., 2048\n"
		  "cycles), lin:STEP:MAX, or edges such as 0,30,60,200,500. See docs/archscope-memhist.md.\n",
	.flags = OPT_CMD_STOP_AT_NON_OPTION,
};

/* The combinations of options memhist refuses. 0, or -1 after error_usage(). */
static int memhist_options_check(const struct memhist_opts *o, int argc)
{
	if (o->from && argc > 0)
		return error_usage("memhist", "give --from FILE or a program to run, not both");
	if (!o->from && argc == 0)
		return error_usage("memhist", "give the program to run after --, or --from FILE");
	if (o->thresholds && o->from)
		return error_usage("memhist", "--thresholds runs the program once per threshold; it cannot read --from");
	if (o->thresholds && o->plot)
		return error_usage("memhist", "--plot draws the latency histogram, which --thresholds does not make");
	return cli_output_dir_check("memhist", "--plot", o->plot) != 0 ? -1 : 0;
}

/* The program run with its loads sampled (PEBS or IBS, as this machine has). 0, or -1 after error(). */
static int memhist_record_live(struct memhist_report *r, const struct memhist_opts *o, char **argv)
{
	char why[512];
	struct as_error err = { 0 };
	r->source = "live";
	int vendor = memsample_live_probe(why, sizeof(why));
	snprintf(r->method, sizeof(r->method), "%s",
		 vendor == 'I' ? "Intel PEBS load latency (mem-loads, ldlat)" : "AMD IBS op (weight: DcMissLat)");
	struct memsample_live_opts lo = { .ldlat_cy = o->ldlat, .period = o->period, .tick = memhist_tick };
	int lrc = memsample_live_record(argv, &lo, &r->set, &r->status, &err);
	progress_done();
	if (lrc != 0)
		return error_err(&err);
	return 0;
}

int cmd_memhist(int argc, char **argv)
{
	struct memhist_opts o = { .bins = "log2", .ldlat = 3 };
	const struct opt options[] = {
		OPT_CHOICE(0, "mode", &o.mode, NULL, memhist_modes, "count samples, or their cost in cycles (default count)"),
		OPT_STRING(0, "bins", &o.bins, "SPEC", "latency intervals in cycles: log2, lin:STEP:MAX or E0,E1,..."),
		OPT_STRING(0, "from", &o.from, "FILE", "read recorded samples instead of running a program"),
		OPT_STRING(0, "thresholds", &o.thresholds, "T1,T2,...", "threshold cycling (Intel): one run per ldlat threshold"),
		OPT_INT(0, "ldlat", &o.ldlat, "CY", 1, 65535, "Intel: sample loads of at least CY cycles (default 3)"),
		OPT_U64(0, "period", &o.period, "N", 1, UINT64_MAX, "one sample per N loads (Intel) or N cycles (AMD IBS); default 4000 samples/s"),
		OPT_JSON(&o.json),
		OPT_PLOT(&o.plot),
		OPT_QUIET(),
		OPT_HELP(),
		OPT_END(),
	};
	argc = opt_parse(argc, argv, &memhist_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (memhist_options_check(&o, argc) != 0)
		return EXIT_USAGE;
	struct memhist_report r = { .o = &o };
	struct memsample_bins bins;
	struct as_error err = { 0 };
	if (memsample_bins_parse(o.bins, &bins, &err) != 0)
		return error_usage("memhist", "--bins: %s", err.msg), EXIT_USAGE;
	/* every option is read before this machine is asked what it can sample: a bad value is bad
	 * input (exit 2) on any machine */
	struct memsample_bins thr;
	if (o.thresholds && memsample_bins_parse(o.thresholds, &thr, &err) != 0)
		return error_usage("memhist", "--thresholds: %s", err.msg), EXIT_USAGE;
	int rc = EXIT_FAIL;
	char why[512];
	/* the program first: a typing error is bad input whatever this machine can sample */
	if (!o.from && !spawn_have(argv[0])) { /* named with why, in stat's words */
		measure_exec_explain(argv[0], ENOENT, why, sizeof(why));
		return error_usage("memhist", "%s", why), EXIT_USAGE;
	}
	if (!o.from && !memsample_live_probe(why, sizeof(why))) {
		error("memhist: %s", why);
		return EXIT_FAIL;
	}
	if (o.from) {
		r.source = "file";
		snprintf(r.method, sizeof(r.method), "recorded samples, data source decoded from perf_mem_data_src");
		if (memsample_read_file(o.from, &r.set, &err) != 0) {
			error_err(&err);
			rc = err.code == -ENOMEM || err.code == -EIO ? EXIT_FAIL : EXIT_USAGE; /* the file is the bad input */
			goto out;
		}
	} else if (o.thresholds) {
		r.source = "thresholds";
		if ((rc = memhist_thresholds(&r, &thr, argv)) != 0)
			goto out;
	} else {
		if (memhist_record_live(&r, &o, argv) != 0)
			goto out;
	}
	if (!r.nthr)
		memsample_hist_build(&r.set, &bins, o.mode, &r.h);
	if (o.plot)
		memhist_plot(&r, o.plot);
	struct emit *e = emit_new(o.json ? EMIT_JSON : EMIT_TEXT, stdout);
	if (!e) {
		error("out of memory");
		goto out;
	}
	memhist_render(e, &r);
	rc = cli_emit_end(e, "memhist");
out:
	memsample_set_release(&r.set);
	return rc;
}
