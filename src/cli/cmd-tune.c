/* archscope tune: guided tuning from probed values (BlackjackBench §6). The options, Ctrl-C, and
 * what gemm (cmd-tune-gemm.c) and stencil (cmd-tune-stencil.c) share: the pinning and the
 * reasoning lines. */
#include <stdio.h>
#include <strings.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/parse-options.h"
#include "cli/cmd-tune.h"
#include "common/cpuset.h"
#include "common/interrupt.h"
#include "report/emit.h"

void cli_tune_reasoning_render(struct emit *e, const char *key, const char (*lines)[256], int n)
{
	emit_array_begin(e, key, NULL);
	for (int i = 0; i < n; i++)
		emit_string(e, NULL, NULL, lines[i]);
	emit_array_end(e);
	emit_object_begin(e, NULL, "reasoning");
	for (int i = 0; i < n; i++)
		emit_text(e, NULL, "%d. %s", i + 1, lines[i]);
	emit_object_end(e);
}

int cli_tune_pin(int cpu_opt, int *cpu)
{
	struct as_cpulist allowed;
	struct as_error err = { 0 };
	*cpu = cpu_opt;
	if (*cpu < 0 && cpulist_allowed(&allowed, &err) == 0 && allowed.n > 0)
		*cpu = allowed.cpu[0];
	if (*cpu >= 0 && cpu_pin_self(*cpu, &err) != 0) {
		progress_done();
		return error_err(&err);
	}
	return 0;
}

static const char *const tune_usage[] = {
	"archscope tune gemm [-m FILE] [--isa NAME] [--compiler CC] [--short] [--json] [--plot DIR]",
	"archscope tune stencil -m FILE [--short] [--json] [--plot DIR]",
	NULL,
};

static const struct opt_cmd tune_cmd = {
	.name = "tune",
	.usage = tune_usage,
	.description =
		"Guided tuning from probed values (BlackjackBench §6).\n\n"
		"gemm: registers (live ranges, counted in vectors of the SIMD width), L1 and line size from\n"
		"the machine file, or from quick probes of this run without one; the register and L1 blocks\n"
		"maximise 2mnk/(2mnk+mn+mk+nk) under the storage constraint mn+mk+nk <= R with k = 1, then\n"
		"the paper's adjustments (sizes without cleanup code; room for the lines of the\n"
		"non-unit-stride operand). The register-blocked kernel is generated with intrinsics for the\n"
		"widest ISA present, compiled at run time, checked against a triple loop and timed against\n"
		"OpenBLAS dgemm (one thread, interleaved) over\n"
		"n = 8 ... 512. The kernel should peak at the L1 block (predicted best n).\n\n"
		"stencil: a 2D 5-point Jacobi sweep blocked in its inner dimension so that the layer\n"
		"condition of `model` holds in a cache level; blocked vs naive on a grid beyond the last\n"
		"cache.\n",
	.epilog = "Every number is measured on this run; `--short` is a quick run (fewer sizes and repetitions)\n"
		  "for tests, not for conclusions. See docs/archscope-tune.md.\n",
};

int cmd_tune(int argc, char **argv)
{
	struct cli_tune_opts o = { .cpu = -1, .seed = 30 };
	const struct opt options[] = {
		OPT_STRING('m', "machine", &o.machine, "FILE", "machine file (from 'probe -o'); gemm without it probes registers and caches now"),
		OPT_STRING(0, "isa", &o.isa, "NAME", "sse2, avx2 or avx512 (default: the widest this CPU has)"),
		OPT_STRING(0, "compiler", &o.compiler, "CC", "compiler for the generated kernel (default: the machine file's, else cc)"),
		OPT_INT(0, "registers", &o.registers, "N", 3, 1024, "vector registers, instead of the machine file's probed count"),
		OPT_INT(0, "cpu", &o.cpu, "N", 0, 65535, "run on CPU N (default: the first allowed)"),
		OPT_INT(0, "reps", &o.reps, "N", 1, 1000, "timed repetitions per size and kernel (default 11; --short 3)"),
		OPT_INT(0, "step", &o.step, "N", 1, 512, "gemm: matrix sizes 8, N, 2N, ... (default 8; --short 16)"),
		OPT_INT(0, "max-size", &o.max_size, "N", 8, 4096, "gemm: the largest matrix size (default 512; --short 96)"),
		OPT_FLAG(0, "short", &o.quick, "a quick run for tests: fewer sizes and repetitions, a smaller grid"),
		OPT_U64(0, "seed", &o.seed, "N", 0, UINT64_MAX, "seed of the matrices' random numbers (default 30)"),
		OPT_JSON(&o.json),
		OPT_PLOT(&o.plot_dir),
		OPT_QUIET(),
		OPT_HELP(),
		OPT_END(),
	};
	argc = opt_parse(argc, argv, &tune_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (argc != 1) {
		error_usage("tune", argc ? "one kernel, got %d arguments" : "which kernel? gemm or stencil", argc);
		return EXIT_USAGE;
	}
	if (strcasecmp(argv[0], "gemm") != 0 && strcasecmp(argv[0], "stencil") != 0) {
		error_usage("tune", "'%s' is not a tune kernel (gemm, stencil)", argv[0]);
		return EXIT_USAGE;
	}
	if (!o.machine && strcasecmp(argv[0], "gemm") != 0) {
		error_usage("tune", "%s: no machine file given (-m FILE; write one with 'archscope probe -o FILE')",
			    argv[0]);
		return EXIT_USAGE;
	}
	if (o.cpu >= 0) { /* a CPU this process may not use is bad input, with or without -m */
		struct as_cpulist allowed, one = { .n = 1, .cpu = { o.cpu } };
		struct as_error err = { 0 };
		if (cpulist_allowed(&allowed, &err) != 0 || cpulist_check_allowed(&one, &allowed, &err) != 0) {
			error_usage("tune", "--cpu: %s", err.msg);
			return EXIT_USAGE;
		}
	}
	if (cli_output_dir_check("tune", "--plot", o.plot_dir) != 0)
		return EXIT_USAGE;
	int gemm = !strcasecmp(argv[0], "gemm"); /* else stencil: checked above */
	/* SIGINT, SIGTERM or SIGHUP: the measuring stops, what was measured is printed marked
	 * interrupted, the temporary directory of gemm's kernel removed, exit 130; a second one ends
	 * archscope at once, that directory removed all the same (common/interrupt.h) */
	o.stop = interrupt_flag();
	interrupt_install();
	int rc = gemm ? cli_tune_gemm(&o) : cli_tune_stencil(&o);
	interrupt_restore();
	return rc;
}
