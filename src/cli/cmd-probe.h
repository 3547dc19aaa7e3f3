/* The probe family: each row of the probe table is a group of machine/probes.h, a one-line summary
 * and a function that runs the library probe, which sets its answers and evidence in the typed
 * struct machine_probes itself, saves its curves (--raw CSV, --plot pictures) and renders the
 * record for people through the emitter (report/emit.h). The JSON of `probe --json` is the record's
 * (machine_probes_json): renderers hold text labels and formats, no JSON key; probe -o writes the
 * machine file from the record too. */
#ifndef ARCHSCOPE_CLI_CMD_PROBE_H
#define ARCHSCOPE_CLI_CMD_PROBE_H

#include <jansson.h>

#include "common/conditions.h"
#include "machine/probes.h"
#include "probe/probe.h"

struct emit;
struct probe_curve;

struct cli_probe_ctx {
	struct probe_env env;    /* what the probes see: CPU, options, earlier answers */
	const char *raw_dir;     /* NULL: no raw CSV */
	const char *plot_dir;    /* NULL: no plots */
	struct emit *e;          /* the output: text or JSON */
	struct machine_probes *rec; /* the answers so far, typed: what -o and --raw write */
	const char *hwloc;       /* --hwloc FILE.xml: the hwloc XML beside the -o machine file; NULL: none */
	int force;               /* --force: -o may write through a symbolic link, into a device or FIFO */
	int save_failed;         /* a --raw or --plot file could not be written: exit 1 */
	/* The conditions of the group running now (common/conditions.h, docs/conditions.md). */
	struct cond_window win;  /* open from the group's start to its first render */
	int group;               /* enum mp_group running, -1: none */
	int attempt;             /* 1, 2, ... */
	int max_attempts;        /* 1 + --remeasure */
	double budget_s;         /* time the group's re-measurements may take */
	double clock_expected;   /* the clock the group's cycles assume (env.clock_ghz at its start) */
	uint64_t group_t0_ns, attempt_t0_ns;
	double paused_s;         /* the group's pauses between attempts (not measuring: off its budget) */
	int again;               /* this attempt is measured again: what it renders is dropped */
	struct emit *shown;      /* the real output while ctx->e is a dropped attempt's */
	double wait_quiet_s;     /* --wait-quiet: seconds at most before each group (0: no wait) */
	int busy_said;           /* the note that the machine stays busy was printed */
};

/* Closes the conditions window of the group running (the first render of each row calls it):
 * judges its conditions and bounds, and either drops this attempt's output (measured again) or
 * flags the recorded answers that stay disturbed or implausible. */
void cli_probe_measured(struct cli_probe_ctx *ctx);

/* Renders a result for people into ctx's output: fn(e, args...), once the group's measurement is
 * judged; in JSON nothing (the record is the JSON). */
#define CLI_PROBE_RENDER(ctx, fn, ...) (cli_probe_measured(ctx), emit_is_text((ctx)->e) ? (void)fn((ctx)->e, __VA_ARGS__) : (void)0)

/* A group's row, at its index (enum mp_group); its name is the group's key (machine/probes.h). */
struct cli_probe_row {
	const char *summary;
	int (*run)(struct cli_probe_ctx *ctx);  /* 0, or -1 after error() (what was measured is rendered) */
	int all_cpus;            /* its threads use every allowed CPU, not only env.cpu */
	unsigned cond_flags;     /* COND_SHARED: other CPUs' load disturbs it (caches, memory) */
};

int cli_probe_row_clock(struct cli_probe_ctx *ctx);
int cli_probe_row_line(struct cli_probe_ctx *ctx);
int cli_probe_row_caches(struct cli_probe_ctx *ctx);
int cli_probe_row_assoc(struct cli_probe_ctx *ctx);
int cli_probe_row_tlb(struct cli_probe_ctx *ctx);
int cli_probe_row_instr(struct cli_probe_ctx *ctx);
int cli_probe_row_contexts(struct cli_probe_ctx *ctx);
int cli_probe_row_registers(struct cli_probe_ctx *ctx);
int cli_probe_row_timeslice(struct cli_probe_ctx *ctx);
int cli_probe_row_c2c(struct cli_probe_ctx *ctx);

/* The clock (cmd-probe-clock.c); quick_first: the quick clock cycle counts need when the clock
 * group does not run (in the JSON, not the text). */
void cli_probe_clock_run(struct cli_probe_ctx *ctx, int quick_first);

/* probe --plan (cmd-probe-plan.c): renders the plan of a full probe of topology (an hwloc XML file;
 * NULL: this machine) into e. 0, or an exit code after error(). */
int cli_probe_plan(struct emit *e, const char *topology, int quick, uint64_t seed);

/* Progress callback of struct probe_opts: one updating line on a terminal. */
void cli_probe_progress(void *unused, const char *probe, const char *point, int done, int total);

enum {
	CLI_PROBE_ANSWER_NOTE = 1 << 1,    /* text: the reason as a "note" field after the answer (else
					* the reason is in JSON only) */
	CLI_PROBE_ANSWER_DIFFERS = 1 << 2, /* text: "<- differs from the OS" when os_reported is 5 % off */
};
/* The recorded answer id (an MP_* of machine/probes.h) for people through emit_answer_begin(): its
 * value in the description's unit, the flags, and the reason as a note (CLI_PROBE_ANSWER_NOTE);
 * further lines follow up to emit_object_end(). fmt: the text format of the value (NULL: "%g");
 * flags: CLI_PROBE_ANSWER_*. */
void cli_probe_answer_render_begin(struct emit *e, int id, const char *label, const struct machine_answer *a,
			       const char *fmt, unsigned flags);
/* cli_probe_answer_render_begin() and emit_object_end(). */
void cli_probe_answer_render(struct emit *e, int id, const char *label, const struct machine_answer *a, const char *fmt,
			 unsigned flags);

/* Whether measured and OS-reported values are both positive and more than 5 % apart. */
int cli_probe_differs(double measured, double os);
#define CLI_PROBE_DIFFERS_TEXT "<- differs from the OS"

/* What the memory rows share (cmd-probe-memory.c). -1 after error(): the probe's message, or its
 * name. A curve (x, min, median) saved as CSV and plotted (xlabel and logx describe the axis). The
 * line size later probes
 * space their slots by (probe_line_need), its error and note printed before the probe that needs it
 * runs (the probe then finds it in env). */
int cli_probe_fail(const char *probe, const struct as_error *err);
void cli_probe_curve_evidence(struct cli_probe_ctx *ctx, const char *name, const char *xname,
			      const struct machine_probes_curve *c, const char *xlabel, int logx);
void cli_probe_need_line(struct cli_probe_ctx *ctx);

struct atomic_file;
/* Commits a plot data file opened with plot_data_open(); a failure is error() and exit 1. */
void cli_probe_data_done(struct cli_probe_ctx *ctx, struct atomic_file *af);
/* Helpers for rows: raw CSV into ctx->raw_dir, a plot into ctx->plot_dir (notes on skip). */
void cli_probe_save_raw(struct cli_probe_ctx *ctx, const char *name, const char *header, const double *data,
		    size_t n, int ncols);
void cli_probe_plot(struct cli_probe_ctx *ctx, const char *name, const char *body);
/* cli_probe_plot of the body printf formats from fmt (nothing when out of memory). */
void cli_probe_plotf(struct cli_probe_ctx *ctx, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A curve's x, min and median as raw CSV (header e.g. "k,min_ns,median_ns"). */
void cli_probe_save_curve(struct cli_probe_ctx *ctx, const char *name, const char *header, const struct probe_curve *c);
/* The same of a curve of the record (its evidence, machine/probes.h). */
void cli_probe_save_points(struct cli_probe_ctx *ctx, const char *name, const char *header,
			   const struct machine_probes_curve *c);

/* probe -o (cmd-probe-machine.c). The saved run of --from-raw DIR: the answers of
 * DIR/probe-results.json into *rec (a usage error when missing), *bench from DIR/benchmarks.json
 * (NULL, with a note, when missing). 0, or -1 after error_usage(). */
int cli_probe_machine_load(const char *dir, struct machine_probes *rec, json_t **bench);
/* Writes the machine file to path from ctx->rec (this run's answers, or the loaded ones) and the
 * streaming benchmarks: bench (loaded; stolen) or, when NULL, run here per level and core count.
 * With --raw (and no --from-raw) saves benchmarks.json beside the curves. 0, or -1 after error(). */
int cli_probe_machine_write(struct cli_probe_ctx *ctx, json_t *bench, int from_raw, const char *path);

#endif
