/* The HTML report page (see page.h): the page itself, the machine, the warnings, the tables (answers,
 * instructions, models, sources) and the embedded data; the figures are in page-figures.c. */
#include "page/page.h"
#include "page/page-impl.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/buffer.h"
#include "machine/result-host.h"
#include "machine/result-model.h"
#include "machine/result-topology.h"
#include "machine/schema.h"
#include "report/output.h"
#include "report/svg.h"

/* --- helpers ------------------------------------------------------------------------------- */

/* A number of the topology's results (NAN where there is none). */
static double topo_num(const struct page_ctx *c, int id)
{
	return schema_num(&topology_result, output_doc_results(c->topo), id);
}

size_t page_size(double v)
{
	return v >= 0 && v <= 9007199254740992.0 ? (size_t)v : 0;
}

int page_count(double v)
{
	return v >= 0 && v <= 1e6 && v == floor(v) ? (int)v : -1;
}

double page_num_named(const json_t *o, const char *name)
{
	const json_t *v = json_is_object(o) ? json_object_get(o, name) : NULL;
	return json_is_number(v) ? json_number_value(v) : NAN;
}


void page_esc(FILE *f, const char *s)
{
	svg_escape(f, s); /* HTML text and attributes need what XML needs */
}

void page_fmt_value(double v, const char *unit, char *buf, size_t len)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "not found");
		return;
	}
	if (unit && !strcmp(unit, "B") && v >= 1 && v < 1e18) {
		buffer_format_size((size_t)(v + 0.5), buf, len);
		return;
	}
	/* "1 context", "1 way": a count of one in the singular */
	static const char *const counts[] = { "contexts", "ways", "registers", "threads", "cores", "CPUs", "entries" };
	char one[32] = "";
	for (size_t i = 0; unit && v == 1 && i < sizeof(counts) / sizeof(counts[0]); i++)
		if (!strcmp(unit, counts[i])) {
			size_t n = strlen(unit);
			snprintf(one, sizeof(one), "%.*s%s", (int)(n - (strcmp(unit, "entries") ? 1 : 3)), unit,
				 strcmp(unit, "entries") ? "" : "y");
		}
	snprintf(buf, len, "%.4g%s%s", v, unit && *unit ? " " : "", one[0] ? one : unit ? unit : "");
}

/* The kernel's SMT control (/sys/devices/system/cpu/smt/control) and whether SMT is active, in
 * words: "notsupported" is "not supported" (inactive goes without saying). */
static void page_smt_words(const char *control, int active, double tpc, char *buf, size_t len)
{
	static const struct { const char *raw, *words; } w[] = {
		{ "on", "on" }, { "off", "off" }, { "forceoff", "forced off" },
		{ "notsupported", "not supported" }, { "notimplemented", "not implemented by the kernel" },
	};
	const char *c = control;
	for (size_t i = 0; c && i < sizeof(w) / sizeof(w[0]); i++)
		if (!strcmp(c, w[i].raw))
			c = w[i].words;
	int unsupported = control && (!strcmp(control, "notsupported") || !strcmp(control, "notimplemented"));
	snprintf(buf, len, "%s%s%s", c ? c : "",
		 active < 0 || unsupported ? "" : active ? (c ? ", active" : "active") : (c ? ", inactive" : "inactive"),
		 isfinite(tpc) ? (tpc > 1 ? " (threads per core: 2+)" : " (one thread per core)") : "");
}

void page_warn(struct page_ctx *c, const char *fmt, ...)
{
	if (c->sum->nwarnings >= PAGE_MAX_WARNINGS)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->sum->warnings[c->sum->nwarnings++], sizeof(c->sum->warnings[0]), fmt, ap);
	va_end(ap);
}

void page_figure_open(struct page_ctx *c, const char *id)
{
	fprintf(c->f, "<figure id=\"fig-%s\"><div class=\"fig\">\n", id);
}

void page_figure_close(struct page_ctx *c, const char *caption)
{
	fputs("</div><figcaption>", c->f);
	page_esc(c->f, caption);
	fputs("</figcaption></figure>\n", c->f);
	c->sum->figures++;
}

void page_figure_chart(struct page_ctx *c, const char *id, const struct svg_chart *ch, const char *caption)
{
	page_figure_open(c, id);
	svg_chart_lines(c->f, ch);
	page_figure_close(c, caption);
}

/* "<td>TEXT</td>" and a numeric cell. */
static void td(FILE *f, const char *text)
{
	fputs("<td>", f);
	page_esc(f, text ? text : "");
	fputs("</td>", f);
}

static void tdn(FILE *f, double v, const char *fmt)
{
	if (!isfinite(v)) {
		fputs("<td class=\"n\">–</td>", f);
		return;
	}
	fputs("<td class=\"n\">", f);
	fprintf(f, fmt, v);
	fputs("</td>", f);
}

/* --- inputs -------------------------------------------------------------------------------- */

static const char *const kinds = "topology, probe, bench, model and numa matrix";

/* The page reads the result types it draws through their descriptions (machine/schema.h; the
 * probe's answers through machine/probes.h): a document of one of them is held to its description
 * (every key present described and of its kind), and its machine block to the host's, so that a
 * member of the wrong kind is refused naming it, rather than shown as "none" or taken for a noisy
 * run. */
static int page_kind_of(const char *cmd)
{
	static const char *const drawn[] = { "topology", "probe", "bench", "model", "numa matrix" };
	for (size_t i = 0; i < sizeof(drawn) / sizeof(drawn[0]); i++)
		if (!strcmp(cmd, drawn[i]))
			return 1;
	return 0;
}

int page_source_check(const json_t *doc, const char *name, struct as_error *err)
{
	if (!json_is_object(doc))
		return as_error_set(err, -EINVAL, "'%s' is not an archscope result: not a JSON object", name);
	const char *cmd = output_doc_command(doc);
	json_t *res = output_doc_results(doc), *host = output_doc_machine(doc);
	if (!cmd || !output_doc_version(doc))
		return as_error_set(err, -EINVAL, "'%s' is not an archscope result: no \"archscope\" and \"command\" "
						  "(the output of a command's --json)", name);
	if (!res)
		return as_error_set(err, -EINVAL, "'%s': its \"results\" is not an object", name);
	if (!page_kind_of(cmd))
		return as_error_set(err, -EINVAL, "'%s' is a result of '%s': the report reads %s results", name, cmd, kinds);
	struct as_error why = { 0 };
	if (host && schema_check_read(&host_result, host, &why) != 0)
		return as_error_set(err, -EINVAL, "'%s': machine.%s", name, why.msg);
	if (strcmp(cmd, "probe") != 0 && schema_check_command(cmd, res, 1, &why) != 0)
		return as_error_set(err, -EINVAL, "'%s': results.%s", name, why.msg);
	return 0;
}

static int classify(struct page_ctx *c, struct as_error *err)
{
	for (size_t i = 0; i < c->in->n; i++) {
		json_t *doc = c->in->sources[i].doc;
		const char *name = c->in->sources[i].name;
		int rc = page_source_check(doc, name, err);
		if (rc)
			return rc;
		const char *cmd = output_doc_command(doc);
		json_t **one = NULL;
		const char **one_name = NULL;
		if (!strcmp(cmd, "topology")) {
			one = &c->topo;
			one_name = &c->topo_name;
		} else if (!strcmp(cmd, "probe")) {
			one = &c->probe;
			one_name = &c->probe_name;
		} else if (!strncmp(cmd, "numa", 4)) {
			one = &c->numa;
			one_name = &c->numa_name;
		}
		if (one) {
			if (*one)
				return as_error_set(err, -EINVAL, "two %s results ('%s' and '%s'): give one", one == &c->numa ? "numa matrix" : cmd,
						    *one_name, name);
			*one = doc;
			*one_name = name;
		} else if (!strcmp(cmd, "bench")) {
			if (c->nbench >= PAGE_MAX_DOCS)
				return as_error_set(err, -EINVAL, "more than %d bench results", PAGE_MAX_DOCS);
			c->bench_name[c->nbench] = name;
			c->bench[c->nbench++] = doc;
		} else {
			if (c->nmodel >= PAGE_MAX_DOCS)
				return as_error_set(err, -EINVAL, "more than %d model results", PAGE_MAX_DOCS);
			c->model_name[c->nmodel] = name;
			c->model[c->nmodel++] = doc;
		}
	}
	/* the machine the page describes: the probe's, else the topology's, else any */
	json_t *m = c->probe ? output_doc_machine(c->probe) : NULL;
	if (!json_is_object(m) && c->topo)
		m = output_doc_machine(c->topo);
	for (size_t i = 0; !json_is_object(m) && i < c->in->n; i++)
		m = output_doc_machine(c->in->sources[i].doc);
	c->machine = json_is_object(m) ? m : NULL;
	return 0;
}

/* --- warnings ------------------------------------------------------------------------------ */

static void find_warnings(struct page_ctx *c)
{
	json_t *m = c->machine;
	json_t *pmu = schema_get(&host_result, m, HO_PMU);
	if (json_is_false(pmu))
		page_warn(c, "No PMU: hardware counters do not open here (a virtual machine without a virtual PMU, or "
			     "perf_event_paranoid): stat, memhist and model's benchmark counters cannot count cycles "
			     "or cache events; times are converted with the measured clock.");
	const char *gov = schema_str(&host_result, m, HO_GOVERNOR);
	if (gov && !strcmp(gov, "powersave"))
		page_warn(c, "The CPU frequency governor is 'powersave': the core clock may change between and during "
			     "measurements; cycles are converted with the clock measured in the same window, but "
			     "bandwidths and times are those of a slowed core ('performance' for benchmarks).");
	const char *thp = schema_str(&host_result, m, HO_THP);
	if (thp && !strcmp(thp, "never"))
		page_warn(c, "Transparent huge pages are off ('never'): buffers use 4 KiB pages, so TLB misses enter "
			     "the latency curve and the bandwidths of large working sets.");
	/* a noisy run: the clock's own confidence, its spread during instr, the load when it started */
	double conf = c->pr.have[MP_CLOCK] == MP_HAVE_YES ? c->pr.clock.confidence : NAN;
	if (isfinite(conf) && conf < 0.6)
		page_warn(c, "Noisy run: the core clock measurement has confidence %.2f (its repetitions disagree): "
			     "another process or the hypervisor took the core during the run.", conf);
	double lo = c->pr.have[MP_INSTR] == MP_HAVE_YES ? c->pr.instr_ev.min_ghz : NAN;
	double hi = c->pr.have[MP_INSTR] == MP_HAVE_YES ? c->pr.instr_ev.max_ghz : NAN;
	if (isfinite(lo) && isfinite(hi) && lo > 0 && hi / lo > 1.10)
		page_warn(c, "Noisy run: the clock brackets of instr range from %.3g to %.3g GHz (%.0f %% apart).", lo, hi,
			  (hi / lo - 1) * 100);
	if (isfinite(c->in->loadavg_start) && c->in->cpus > 0 && c->in->loadavg_start > 0.75 * c->in->cpus)
		page_warn(c, "Noisy run: the load average was %.2f on %d CPUs when the run started: other processes "
			     "shared the machine.", c->in->loadavg_start, c->in->cpus);
	else {
		/* saved results: the load average when the probe result was written */
		double load = schema_num(&host_result, m, HO_LOADAVG), cpus = schema_num(&host_result, m, HO_CPUS_ONLINE);
		if (isfinite(load) && cpus > 0 && load > 0.75 * cpus)
			page_warn(c, "Noisy run: the load average was %.2f on %.0f CPUs when the results were written: "
				     "other processes shared the machine.", load, cpus);
	}
	/* answers measured while other work disturbed them, or past a physical bound */
	char list[600];
	int nflag = machine_probes_flagged(&c->pr, list, sizeof(list));
	if (nflag > 0)
		page_warn(c, "%d answer%s %s flagged: measured while other work disturbed %s, or past a physical bound "
			     "(each one says why below): %s", nflag, nflag == 1 ? "" : "s", nflag == 1 ? "is" : "are",
			  nflag == 1 ? "it" : "them", list);
	/* results of different machines on one page */
	const char *host = schema_str(&host_result, m, HO_HOSTNAME);
	for (size_t i = 0; host && i < c->in->n; i++) {
		const char *h = schema_str(&host_result, output_doc_machine(c->in->sources[i].doc), HO_HOSTNAME);
		if (h && strcmp(h, host) != 0) {
			page_warn(c, "The inputs come from different machines: '%s' is from '%s', the page describes '%s'.",
				  c->in->sources[i].name, h, host);
			break;
		}
	}
}

/* --- the page ------------------------------------------------------------------------------ */

static const char css[] =
	":root{--fg:#1b1b1b;--mut:#5f6368;--line:#d5d8dc;--acc:#0072b2}"
	"*{box-sizing:border-box}"
	"html{-webkit-text-size-adjust:100%}"
	"body{margin:0;font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;color:var(--fg);background:#fff}"
	"main{max-width:1120px;margin:0 auto;padding:12px 18px 48px}"
	"h1{font-size:1.55em;margin:.3em 0 .1em}h2{font-size:1.2em;margin:1.8em 0 .5em;padding-bottom:.2em;border-bottom:1px solid var(--line)}"
	"h3{font-size:1em;margin:1.2em 0 .3em}p{margin:.5em 0}.sub,.note{color:var(--mut)}.note{font-size:.9em}"
	"nav{font-size:.9em;margin:.6em 0}nav a{margin-right:.8em;white-space:nowrap}a{color:var(--acc)}"
	"figure{margin:1em 0;break-inside:avoid;min-width:0}.fig{overflow-x:auto}"
	"figure svg{display:block;max-width:100%;height:auto}"
	"figcaption{color:var(--mut);font-size:.88em;margin-top:.3em}"
	".grid2{display:grid;grid-template-columns:repeat(auto-fit,minmax(340px,1fr));gap:4px 18px}.grid2>*{min-width:0}"
	"td,dd,figcaption,p{overflow-wrap:break-word}"
	".tw{overflow-x:auto}table{border-collapse:collapse;font-size:.88em;margin:.4em 0}"
	"th,td{border-bottom:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}"
	"th{font-weight:600;background:#f6f7f8}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
	"td.m{font-size:.92em;color:#333;min-width:16em}"
	".warn{border-left:4px solid #c5221f;background:#fdecea;padding:6px 12px;margin:.5em 0}"
	".ok{border-left:4px solid #188038;background:#e6f4ea;padding:6px 12px;margin:.5em 0}"
	".conf{display:inline-block;width:54px;height:8px;background:#e3e5e8;margin-right:5px;vertical-align:middle}"
	".conf i{display:block;height:100%;background:var(--acc)}.conf.low i{background:#d55e00}"
	"dl.kv{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:.4em 0}dl.kv dt{color:var(--mut)}dl.kv dd{margin:0}"
	"ul.wit{margin:.2em 0;padding-left:1.1em}code{font-size:.92em}"
	"svg text{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;font-size:12px;fill:#333}"
	"svg .tick{font-size:11px;fill:#555}svg .leg{font-size:11px}svg .val,svg .cval{font-size:10px}"
	"svg .grid{stroke:#eceef0}svg .ax{fill:none;stroke:#8a8f95}svg polyline{fill:none;stroke-width:2}"
	"svg .s0{stroke:#0072b2}svg .s1{stroke:#e69f00}svg .s2{stroke:#009e73}svg .s3{stroke:#cc79a7}"
	"svg .s4{stroke:#56b4e9}svg .s5{stroke:#d55e00}svg .s6{stroke:#8c6d00}svg .s7{stroke:#000}"
	"svg .f0{fill:#0072b2}svg .f1{fill:#e69f00}svg .f2{fill:#009e73}svg .f3{fill:#cc79a7}"
	"svg .f4{fill:#56b4e9}svg .f5{fill:#d55e00}svg .f6{fill:#8c6d00}svg .f7{fill:#444}"
	"svg line.s0,svg line.s1,svg line.s2,svg line.s3,svg line.s4,svg line.s5,svg line.s6,svg line.s7{stroke-width:2}"
	"svg .dash{stroke-dasharray:6 4}svg .mark{stroke-width:1.5}svg .mark.meas{stroke:#009e73}"
	"svg .mark.os{stroke:#d55e00;stroke-dasharray:4 3}svg .mlbl{font-size:10px}svg .mlbl.meas{fill:#00704f}svg .mlbl.os{fill:#a84300}"
	"svg .pt{fill:#cc79a7;stroke:#fff;stroke-width:1.5}svg .plbl{font-size:11px}"
	"svg .roof{stroke-width:2.5}svg .ceil{stroke:#333;stroke-width:2}svg .clbl{font-size:11px}"
	"svg rect.none{fill:#f1f3f4;stroke:#dadce0}svg rect.cell{stroke:#fff}svg .cval{fill:#fff}svg .cval.dark{fill:#111}"
	"svg .box{fill:#f8f9fa;stroke:#9aa0a6}svg .box.mach{fill:#fff}svg .box.pkg{fill:#eef3f8}svg .box.numa{fill:#f4ecf7}"
	"svg .box.cache{fill:#fff7e0}svg .box.core{fill:#e8f5e9}svg .blbl{font-weight:600}svg .bnote{font-size:11px;fill:#555}"
	"svg .bnote.meas{fill:#00704f}"
	"@media (max-width:640px){body{font-size:15px}main{padding:8px 10px 32px}.fig svg.wide{max-width:none;width:600px}"
	"th,td{padding:3px 5px}.grid2{grid-template-columns:1fr}dl.kv{grid-template-columns:1fr}dl.kv dd{margin-bottom:.3em}}"
	"@media print{body{font-size:10.5pt}main{max-width:none;padding:0}nav{display:none}.fig{overflow:visible}"
	".fig svg.wide{max-width:100%;width:auto}h2{break-after:avoid}figure,tr,.warn{break-inside:avoid}"
	"*{-webkit-print-color-adjust:exact;print-color-adjust:exact}a{color:inherit;text-decoration:none}@page{margin:14mm}}";

static void fact(FILE *f, const char *name, const char *value)
{
	fputs("<dt>", f);
	page_esc(f, name);
	fputs("</dt><dd>", f);
	page_esc(f, value && *value ? value : "not recorded");
	fputs("</dd>\n", f);
}

static void section_machine(struct page_ctx *c)
{
	FILE *f = c->f;
	json_t *m = c->machine;
	char buf[256];
	fputs("<h2 id=\"machine\">Machine</h2>\n<dl class=\"kv\">\n", f);
	const char *cpu = schema_str(&host_result, m, HO_CPU_MODEL);
	if (!cpu)
		cpu = schema_str(&topology_result, output_doc_results(c->topo), TR_CPU_MODEL);
	fact(f, "CPU (as the OS names it)", cpu);
	double clock = c->pr.clock.value, tsc = c->pr.tsc_ghz;
	if (isfinite(clock)) {
		snprintf(buf, sizeof(buf), "%.3f GHz measured (TSC %.3f GHz)", clock, tsc);
		fact(f, "core clock", buf);
	}
	if (c->topo) {
		snprintf(buf, sizeof(buf), "%.0f package%s, %.0f cores, %.0f hardware threads",
			 topo_num(c, TR_PACKAGES), topo_num(c, TR_PACKAGES) == 1 ? "" : "s",
			 topo_num(c, TR_CORES), topo_num(c, TR_THREADS));
		fact(f, "cores", buf);
	} else if (isfinite(schema_num(&host_result, m, HO_CPUS_ONLINE))) {
		snprintf(buf, sizeof(buf), "%.0f online", schema_num(&host_result, m, HO_CPUS_ONLINE));
		fact(f, "CPUs", buf);
	}
	snprintf(buf, sizeof(buf), "%s %s", schema_str(&host_result, m, HO_KERNEL) ? schema_str(&host_result, m, HO_KERNEL) : "",
		 schema_str(&host_result, m, HO_ARCH) ? schema_str(&host_result, m, HO_ARCH) : "");
	fact(f, "kernel", buf[0] != ' ' ? buf : NULL);
	json_t *gov = schema_get(&host_result, m, HO_GOVERNOR);
	fact(f, "frequency governor", json_is_string(gov) ? json_string_value(gov) : json_is_null(gov) ? "none (no cpufreq)" : NULL);
	fact(f, "transparent huge pages", schema_str(&host_result, m, HO_THP));
	json_t *smt = schema_get(&host_result, m, HO_SMT), *act = schema_get(&host_result, m, HO_SMT_ACTIVE);
	double tpc = topo_num(c, TR_THREADS_PER_CORE);
	if (json_is_string(smt) || isfinite(tpc)) {
		page_smt_words(json_is_string(smt) ? json_string_value(smt) : NULL,
			       json_is_boolean(act) ? json_is_true(act) : -1, tpc, buf, sizeof(buf));
		fact(f, "SMT", buf);
	} else {
		fact(f, "SMT", NULL);
	}
	json_t *pmu = schema_get(&host_result, m, HO_PMU);
	fact(f, "hardware counters (PMU)", json_is_true(pmu) ? "yes" : json_is_false(pmu) ? "no" : NULL);
	fact(f, "host", schema_str(&host_result, m, HO_HOSTNAME));
	json_t *first = c->probe ? c->probe : c->in->n ? c->in->sources[0].doc : NULL;
	const char *made = output_doc_version(first);
	snprintf(buf, sizeof(buf), "%s (results made by %s)", c->in->version, made ? made : "?");
	fact(f, "archscope", buf);
	fact(f, "measured", schema_str(&host_result, m, HO_DATE));
	fact(f, "page made", c->in->date);
	if (c->in->run)
		fact(f, "inputs", c->in->run);
	fputs("</dl>\n", f);
}

static void section_warnings(struct page_ctx *c)
{
	FILE *f = c->f;
	fputs("<h2 id=\"warnings\">Warnings</h2>\n", f);
	if (c->sum->nwarnings == 0) {
		fputs("<p class=\"ok\">None: a governor that is not powersave, transparent huge pages available, hardware "
		      "counters, and a quiet clock.</p>\n", f);
		return;
	}
	for (int i = 0; i < c->sum->nwarnings; i++) {
		fputs("<p class=\"warn\">", f);
		page_esc(f, c->sum->warnings[i]);
		fputs("</p>\n", f);
	}
}

/* --- answers ------------------------------------------------------------------------------- */

static void conf_cell(FILE *f, double conf)
{
	if (!isfinite(conf)) {
		fputs("<td class=\"n\">–</td>", f);
		return;
	}
	fprintf(f, "<td class=\"n\"><span class=\"conf%s\"><i style=\"width:%.0f%%\"></i></span>%.2f</td>",
		conf < 0.5 ? " low" : "", conf * 100 < 0 ? 0 : conf * 100 > 100 ? 100 : conf * 100, conf);
}

/* An answer's flags (docs/conditions.md): measured while disturbed, or past a bound. */
static void answer_flags(struct page_ctx *c, const struct machine_answer *a, const char *lead)
{
	if (a->implausible[0]) {
		fputs(lead, c->f);
		fputs("<b class=\"warn\">Implausible:</b> ", c->f);
		page_esc(c->f, a->implausible);
		c->sum->flagged++;
	} else if (a->noisy[0]) {
		fputs(lead, c->f);
		fputs("<b class=\"warn\">Noisy:</b> ", c->f);
		page_esc(c->f, a->noisy);
		c->sum->flagged++;
	}
}

/* The witnesses (their object wid, -1: none) of an answer, each with its value in the table's unit. */
static void witnesses_list(struct page_ctx *c, int wid)
{
	FILE *f = c->f;
	char val[64];
	if (wid < 0)
		return;
	fputs("<ul class=\"wit\">", f);
	for (int w = machine_probes_child(wid, wid); w < MP_COUNT; w = machine_probes_child(wid, w)) {
		const struct machine_answer *v = machine_probes_at(&c->pr, w);
		if (machine_probe_fields[w].kind != MP_ANSWER || !v)
			continue;
		page_fmt_value(v->value, machine_probe_fields[w].unit, val, sizeof(val));
		fputs("<li><b>witness ", f);
		page_esc(f, machine_probe_fields[w].key);
		fputs("</b>: ", f);
		page_esc(f, val);
		fprintf(f, " (confidence %.2f): ", v->confidence);
		page_esc(f, v->method);
		if (v->reason[0]) {
			fputs(" — ", f);
			page_esc(f, v->reason);
		}
		answer_flags(c, v, " — ");
		fputs("</li>", f);
	}
	fputs("</ul>", f);
}

/* One answer (entry id of the table, its value a) under name, in the table's unit; an answer the
 * result does not hold (no value, method or reason) is left out. */
static void answer_row(struct page_ctx *c, const char *name, int id, const struct machine_answer *a)
{
	FILE *f = c->f;
	if (!isfinite(a->value) && !a->method[0] && !a->reason[0])
		return;
	const char *unit = machine_probe_fields[id].unit;
	char val[64], os[64] = "–";
	page_fmt_value(a->value, unit, val, sizeof(val));
	if (isfinite(a->value) && isfinite(a->confidence) && a->confidence < 0.5) /* a guess is not a finding */
		snprintf(val + strlen(val), sizeof(val) - strlen(val), " (low confidence)");
	if (isfinite(a->os_reported))
		page_fmt_value(a->os_reported, unit, os, sizeof(os));
	fputs("<tr>", f);
	td(f, name);
	fputs("<td class=\"n\">", f);
	page_esc(f, val);
	fputs("</td><td class=\"n\">", f);
	page_esc(f, os);
	fputs("</td>", f);
	conf_cell(f, a->confidence);
	fputs("<td class=\"m\">", f);
	page_esc(f, a->method);
	if (a->reason[0]) {
		fputs("<br><b>Reason:</b> ", f);
		page_esc(f, a->reason);
	}
	answer_flags(c, a, "<br>");
	witnesses_list(c, machine_probes_witnesses(id));
	fputs("</td></tr>\n", f);
	c->sum->answers++;
}

/* The name of answer id (in row i of its table, -1: none) for people: its path's keys, a table's
 * row as its level ("caches L2 size"). */
static void answer_name(int id, int i, char *buf, size_t len)
{
	char path[256];
	machine_probes_path(id, 0, path, sizeof(path));
	char *rows = strstr(path, "[]");
	if (rows && i >= 0) { /* "caches.levels[].size" -> "caches.L2.size" */
		char *start = rows;
		while (start > path && start[-1] != '.')
			start--;
		char rest[256];
		snprintf(rest, sizeof(rest), "%s", rows + 2);
		snprintf(start, sizeof(path) - (size_t)(start - path), "L%d%s", i + 1, rest);
	}
	snprintf(buf, len, "%s", path);
	for (char *p = buf; *p; p++)
		if (*p == '.')
			*p = ' ';
}

/* Every answer of the groups the probe result holds, from the table; witnesses under the answer
 * they back. */
static void answers_walk(struct page_ctx *c)
{
	const struct machine_probe_field *fl = machine_probe_fields;
	for (int id = 0; id < MP_COUNT; id++) {
		if (fl[id].kind != MP_ANSWER || machine_probes_is_witness(id))
			continue;
		int top = id;
		while (fl[top].parent != MP_ROOT)
			top = fl[top].parent;
		if (c->pr.have[top] != MP_HAVE_YES)
			continue;
		char name[256];
		const struct machine_answer *a = machine_probes_at(&c->pr, id);
		if (a) {
			answer_name(id, -1, name, sizeof(name));
			answer_row(c, name, id, a);
			continue;
		}
		for (int i = 0; i < machine_probes_rows(&c->pr, id); i++) {
			answer_name(id, i, name, sizeof(name));
			answer_row(c, name, id, machine_probes_row_at(&c->pr, id, i));
		}
	}
}

static void section_answers(struct page_ctx *c)
{
	FILE *f = c->f;
	fputs("<h2 id=\"answers\">Every answer</h2>\n", f);
	if (!c->probe) {
		fputs("<p class=\"note\">No probe result given.</p>\n", f);
		return;
	}
	fputs("<p class=\"note\">Each measured answer with the value the OS reports beside it (it never decides "
	      "the answer), its confidence (0 to 1), the method, and the reason and witnesses where they "
	      "disagree or the answer was not found.</p>\n<div class=\"tw\"><table><thead><tr><th>answer</th>"
	      "<th class=\"n\">measured</th><th class=\"n\">OS reported</th><th class=\"n\">confidence</th>"
	      "<th>method, reason, witnesses</th></tr></thead><tbody>\n", f);
	answers_walk(c);
	fputs("</tbody></table></div>\n", f);
	c->sum->tables++;
}

/* --- tables -------------------------------------------------------------------------------- */

static void section_instr(struct page_ctx *c)
{
	FILE *f = c->f;
	const struct machine_probes *pr = &c->pr;
	fputs("<h2 id=\"instr\">Instructions</h2>\n", f);
	if (!pr->nops) {
		fputs("<p class=\"note\">No probe instr result given.</p>\n", f);
		return;
	}
	const char *cyc = pr->instr_ev.cycles;
	fputs("<p class=\"note\">Latency, throughput and operations in flight in core cycles of the measured clock", f);
	if (*cyc) {
		fputs(" (", f);
		page_esc(f, cyc);
		fputs(")", f);
	}
	fputs("; published figures beside them.</p>\n<div class=\"tw\"><table><thead><tr><th>op</th><th>type</th>"
	      "<th class=\"n\">bits</th><th class=\"n\">latency (cy)</th><th class=\"n\">throughput (/cy)</th>"
	      "<th class=\"n\">in flight</th><th class=\"n\">published lat. (cy)</th><th class=\"n\">published thr. (/cy)</th>"
	      "<th>instruction, source</th></tr></thead><tbody>\n", f);
	/* the published figures: evidence beside the answers, the first source's */
	for (int i = 0; i < pr->nops; i++) {
		const struct machine_probes_op *op = &pr->op[i];
		fputs("<tr>", f);
		td(f, op->op);
		td(f, op->type);
		tdn(f, op->width_bits, "%.0f");
		tdn(f, op->latency_cy, "%.2f");
		tdn(f, op->throughput_per_cy, "%.2f");
		tdn(f, op->in_flight, "%.0f");
		const struct machine_probes_pub_source *src = op->pub.have && op->pub.nsources ? &op->pub.source[0] : NULL;
		tdn(f, src ? src->latency_cy : NAN, "%.2f");
		tdn(f, src ? src->throughput_per_cy : NAN, "%.2f");
		fputs("<td class=\"m\">", f);
		if (op->pub.have && op->pub.instruction[0]) {
			fputs("<code>", f);
			page_esc(f, op->pub.instruction);
			fputs("</code> ", f);
		}
		page_esc(f, src ? src->source : NULL);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
	c->sum->tables++;
	if (pr->have[MP_INSTR] != MP_HAVE_YES)
		return;
	double ghz = pr->clock.value;
	fputs("<h3>FLOPs per cycle (one core)</h3>\n<div class=\"tw\"><table><thead><tr><th>precision</th><th>width</th>"
	      "<th class=\"n\">ADD</th><th class=\"n\">MUL</th><th class=\"n\">FMA</th><th class=\"n\">total</th>"
	      "<th class=\"n\">GFLOP/s at the measured clock</th></tr></thead><tbody>\n", f);
	/* [SP, DP][scalar, vector] as in flops_per_cy, each [total, ADD, MUL, FMA] */
	static const int prec[] = { MP_FLOPS_SP, MP_FLOPS_DP };
	static const int width[2][2] = { { MP_FLOPS_SP_SCALAR, MP_FLOPS_SP_VECTOR }, { MP_FLOPS_DP_SCALAR, MP_FLOPS_DP_VECTOR } };
	for (int p = 0; p < 2; p++)
		for (int w = 0; w < 2; w++) {
			const double *v = pr->flops_per_cy[p][w];
			fputs("<tr>", f);
			td(f, machine_probe_fields[prec[p]].key);
			td(f, machine_probe_fields[width[p][w]].key);
			tdn(f, v[1], "%.2f");
			tdn(f, v[2], "%.2f");
			tdn(f, v[3], "%.2f");
			tdn(f, v[0], "%.2f");
			tdn(f, v[0] * ghz, "%.1f");
			fputs("</tr>\n", f);
		}
	fputs("</tbody></table></div>\n", f);
	c->sum->tables++;
}

static void section_models(struct page_ctx *c)
{
	FILE *f = c->f;
	if (!c->nmodel)
		return;
	fputs("<h2 id=\"models\">Models</h2>\n<div class=\"tw\"><table><thead><tr><th>kernel</th><th>machine file</th>"
	      "<th>constants</th><th class=\"n\">flops/it</th><th>ECMData (cy/CL)</th><th>Roofline bottleneck</th>"
	      "<th class=\"n\">GFLOP/s</th></tr></thead><tbody>\n", f);
	for (size_t i = 0; i < c->nmodel; i++) {
		json_t *r = output_doc_results(c->model[i]);
		char buf[256] = "";
		fputs("<tr>", f);
		td(f, schema_str(&model_result, r, MO_KERNEL));
		td(f, schema_str(&model_result, r, MO_MACHINE_FILE));
		json_t *d = schema_get(&model_result, r, MO_DEFINES);
		size_t w = 0;
		const char *k;
		json_t *v;
		json_object_foreach(d, k, v) {
			if (w < sizeof(buf))
				w += (size_t)snprintf(buf + w, sizeof(buf) - w, "%s%s=%.15g", w ? " " : "", k,
						      json_is_number(v) ? json_number_value(v) : NAN); /* N=4000000 */
		}
		td(f, buf);
		tdn(f, schema_num(&model_result, r, MO_FLOPS), "%.0f");
		/* the transfer costs by level: the levels' names are data, beside the described keys */
		json_t *ecmd = schema_get(&model_result, r, MO_ECMD);
		snprintf(buf, sizeof(buf), "L2 %.3g | L3 %.3g | MEM %.3g", page_num_named(ecmd, "L2"), page_num_named(ecmd, "L3"),
			 page_num_named(ecmd, "MEM"));
		td(f, isfinite(page_num_named(ecmd, "L2")) ? buf : NULL);
		td(f, schema_str(&model_result, r, MO_RL_BOTTLENECK));
		tdn(f, schema_num(&model_result, r, MO_RL_GFLOPS), "%.3g");
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
	c->sum->tables++;
}

static void section_sources(struct page_ctx *c)
{
	FILE *f = c->f;
	fputs("<h2 id=\"sources\">Inputs</h2>\n<div class=\"tw\"><table><thead><tr><th>input</th><th>command</th>"
	      "<th>archscope</th><th>host</th><th>measured</th></tr></thead><tbody>\n", f);
	for (size_t i = 0; i < c->in->n; i++) {
		json_t *d = c->in->sources[i].doc;
		fputs("<tr>", f);
		td(f, c->in->sources[i].name);
		td(f, output_doc_command(d));
		td(f, output_doc_version(d));
		td(f, schema_str(&host_result, output_doc_machine(d), HO_HOSTNAME));
		td(f, schema_str(&host_result, output_doc_machine(d), HO_DATE));
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n<p class=\"note\">Every input is embedded in this page as JSON "
	      "(<code>script#archscope-data</code>), as the command printed it with <code>--json</code>.</p>\n", f);
}

/* The inputs as one JSON object inside <script type="application/json">: every '<' is written
 * \u003c (the same string in JSON), so no input can end the element or open another. */
static int section_data(struct page_ctx *c, struct as_error *err)
{
	json_t *all = json_object();
	json_t *list = json_array();
	json_object_set_new(all, "archscope", json_string(c->in->version));
	json_object_set_new(all, "generated", json_string(c->in->date ? c->in->date : ""));
	for (size_t i = 0; i < c->in->n; i++) {
		json_t *s = json_object();
		json_object_set_new(s, "name", json_string(c->in->sources[i].name));
		json_object_set(s, "document", c->in->sources[i].doc);
		json_array_append_new(list, s);
	}
	json_object_set_new(all, "sources", list);
	char *text = json_dumps(all, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	json_decref(all);
	if (!text)
		return as_error_set(err, -ENOMEM, "cannot serialise the inputs as JSON");
	fputs("<script type=\"application/json\" id=\"archscope-data\">", c->f);
	for (const char *p = text; *p; p++) {
		if (*p == '<')
			fputs("\\u003c", c->f); /* only inside strings: the same string in JSON */
		else
			fputc(*p, c->f);
	}
	fputs("</script>\n", c->f);
	free(text);
	return 0;
}

static int write_page(struct page_ctx *c, struct as_error *err)
{
	FILE *out = c->f;
	const struct page_input *in = c->in;
	int rc;
	find_warnings(c);
	const char *host = schema_str(&host_result, c->machine, HO_HOSTNAME);
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
	      "img-src data:\">\n",
	      out);
	fprintf(out, "<meta name=\"generator\" content=\"archscope %s\">\n<title>archscope report: ", in->version);
	page_esc(out, host ? host : "a machine");
	fprintf(out, "</title>\n<style>%s</style>\n</head><body><main>\n<h1>archscope report: ", css);
	page_esc(out, host ? host : "a machine");
	fputs("</h1>\n<p class=\"sub\">", out);
	const char *cpu = schema_str(&host_result, c->machine, HO_CPU_MODEL);
	page_esc(out, cpu ? cpu : schema_str(&topology_result, output_doc_results(c->topo), TR_CPU_MODEL));
	if (schema_str(&host_result, c->machine, HO_DATE)) {
		fputs(" · measured ", out);
		page_esc(out, schema_str(&host_result, c->machine, HO_DATE));
	}
	fputs("</p>\n<nav><a href=\"#warnings\">warnings</a> <a href=\"#machine\">machine</a> <a href=\"#topology\">topology</a> "
	      "<a href=\"#latency\">latency</a> <a href=\"#bandwidth\">bandwidth</a> <a href=\"#roofline\">Roofline</a> "
	      "<a href=\"#heatmaps\">c2c and NUMA</a> <a href=\"#instr\">instructions</a> <a href=\"#answers\">answers</a> "
	      "<a href=\"#curves\">curves</a> <a href=\"#sources\">inputs</a></nav>\n",
	      out);
	section_warnings(c);
	section_machine(c);
	page_topology(c);
	page_latency(c);
	page_bandwidth(c);
	page_roofline(c);
	section_models(c);
	page_heatmaps(c);
	section_instr(c);
	section_answers(c);
	page_curves(c);
	section_sources(c);
	rc = section_data(c, err);
	if (rc)
		return rc;
	fprintf(out, "<p class=\"note\">Made by archscope %s. Figures are inline SVG; this page loads nothing.</p>\n"
		     "</main></body></html>\n", in->version);
	if (ferror(out))
		return as_error_set(err, -EIO, "cannot write the page");
	return 0;
}

int page_write(FILE *out, const struct page_input *in, struct page_summary *sum, struct as_error *err)
{
	memset(sum, 0, sizeof(*sum));
	struct page_ctx c = { .f = out, .in = in, .sum = sum };
	machine_probes_init(&c.pr);
	int rc = classify(&c, err);
	if (!rc && c.probe) {
		rc = machine_probes_from_json(output_doc_results(c.probe), &c.pr, err);
		if (rc == -EINVAL)
			as_error_prefix(err, "'%s': results.", c.probe_name);
	}
	if (!rc)
		rc = write_page(&c, err);
	machine_probes_release(&c.pr);
	return rc;
}
