/* archscope-cluster: the executable of `archscope cluster`, the only one that links Open MPI. Every
 * rank runs the same sequence of collective phases (placement, nodes, latency, bandwidth, shift,
 * sizes, LogGP, contention: cmd-cluster-phases.c); rank 0 gathers, renders and saves, and says
 * where the run was when mpirun ends it. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cluster/cmd-cluster-impl.h"
#include "cli/parse-options.h"
#include "probe/clock.h"
#include "common/conditions.h"
#include "common/timer.h"
#include "common/interrupt.h"
#include "report/emit.h"
#include "report/plot.h"

/* --- what rank 0 says when mpirun ends the run ------------------------------------------------ */

static struct cluster_status status;
static const struct cluster_place *status_place;
static const char *status_raw;
static char status_stopped[4200], status_stopped_tmp[64]; /* the report, /proc/self/fd/N of its unnamed file */
static int status_stopped_fd = -1;

static size_t put(char *b, size_t n, size_t cap, const char *s)
{
	while (*s && n + 1 < cap)
		b[n++] = *s++;
	return n;
}

static size_t put_int(char *b, size_t n, size_t cap, long v)
{
	char d[24];
	int k = 0;
	if (v < 0) {
		n = put(b, n, cap, "-");
		v = -v;
	}
	do
		d[k++] = (char)('0' + v % 10);
	while ((v /= 10) && k < 23);
	while (k > 0 && n + 1 < cap)
		b[n++] = d[--k];
	return n;
}

static size_t put_rank(char *b, size_t n, size_t cap, int r)
{
	n = put_int(b, n, cap, r);
	if (status_place && r >= 0 && r < status_place->size) {
		n = put(b, n, cap, " (");
		n = put(b, n, cap, status_place->ranks[r].host);
		n = put(b, n, cap, ")");
	}
	return n;
}

/* Async-signal-safe: says why and where the run ended and which ranks had not reported the step,
 * on stderr and in --raw DIR/stopped.txt (which outlives mpirun's forwarding of stderr). */
static void report_stop(const char *cause)
{
	char b[2048];
	size_t n = 0, cap = sizeof(b);
	n = put(b, n, cap, "archscope: error: the run ended by ");
	n = put(b, n, cap, cause);
	if (status.phase) {
		n = put(b, n, cap, " during ");
		n = put(b, n, cap, status.phase);
		n = put(b, n, cap, " step ");
		n = put_int(b, n, cap, status.step);
		n = put(b, n, cap, " of ");
		n = put_int(b, n, cap, status.steps);
		if (!status.waiting && status.peer >= 0) {
			n = put(b, n, cap, ": rank 0 was measuring with rank ");
			n = put_rank(b, n, cap, status.peer);
		}
		if (status.waiting && status.answered && status_place) {
			n = put(b, n, cap, ": no record yet from rank ");
			int shown = 0;
			for (int r = 0; r < status_place->size && shown < 8; r++)
				if (!status.answered[r]) {
					if (shown++)
						n = put(b, n, cap, ", ");
					n = put_rank(b, n, cap, r);
				}
		}
	}
	if (status_raw) {
		n = put(b, n, cap, "; ");
		n = put(b, n, cap, status_raw);
		n = put(b, n, cap, " holds what was measured before");
	}
	n = put(b, n, cap, "\n");
	ssize_t w = 0;
	/* the file first: stderr is a pipe to mpirun, which may have stopped reading it */
	if (status_stopped[0] && status_stopped_fd >= 0) {
		/* whole or not at all, and nothing else left behind: mpirun's SIGKILL may follow at any
		 * moment, so the text goes into a file without a name (O_TMPFILE, opened at the start),
		 * which gets its name only when it is complete */
		w = pwrite(status_stopped_fd, b, n, 0);
		if (w == (ssize_t)n)
			linkat(AT_FDCWD, status_stopped_tmp, AT_FDCWD, status_stopped, AT_SYMLINK_FOLLOW);
		status_stopped_fd = -1;
	}
	w = write(2, b, n);
	(void)w;
}

/* Not common/interrupt.h's policy on purpose: a rank cannot stop measuring alone (the others wait
 * in a collective or a message that will never come), and mpirun follows its SIGINT or SIGTERM to
 * every rank with a SIGKILL moments later; so the first signal reports where the run was and ends
 * the rank at once with 130. */
static void on_stop(int sig)
{
	report_stop(sig == SIGINT ? "SIGINT (mpirun ends every rank when one dies or the run is interrupted)"
				  : "SIGTERM (mpirun ends every rank when one dies or the run is interrupted)");
	/* a moment for mpirun to read the line from the pipe before this rank is gone */
	struct timespec ts = { 0, 300000000 };
	nanosleep(&ts, NULL);
	_exit(INTERRUPT_EXIT);
}

/* --- progress and --raw as the run goes (rank 0) ------------------------------------------------ */

struct run_ctx {
	struct cli_cluster_result *r;
	uint64_t last_save_ns, save_cost_ns;
	char saved[128];             /* the last step the matrix files hold */
};

static void on_progress(void *arg, const char *phase, int step, int steps)
{
	(void)arg;
	progress("cluster: %s, step %d of %d", phase, step, steps);
}

/* --raw after each step: the matrices, then progress.txt, so that a run cut at any moment (kill -9 of
 * a rank, after which mpirun may kill rank 0 outright) leaves files that hold every step progress.txt
 * calls done. The matrices are written every step unless writing them takes more than a tenth of
 * the time between steps (thousands of ranks); progress.txt then says which step they hold. */
static void on_step_done(void *arg, const char *phase, int step, int steps)
{
	struct run_ctx *c = arg;
	const char *dir = c->r->o->raw_dir;
	if (!dir)
		return;
	/* SIGINT and SIGTERM wait while the files are written (milliseconds): on_stop's _exit in the
	 * middle of one left its temporary file in --raw (t0305); mpirun's SIGKILL comes seconds later */
	sigset_t stop, old;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	uint64_t now = timer_now_ns();
	char text[400];
	if (step == steps || now - c->last_save_ns >= 10 * c->save_cost_ns) {
		if (cli_cluster_save_matrices(c->r, dir) != 0)
			c->r->save_failed = 1;
		c->last_save_ns = timer_now_ns();
		c->save_cost_ns = c->last_save_ns - now;
		snprintf(c->saved, sizeof(c->saved), "%s step %d of %d", phase, step, steps);
	}
	int n = snprintf(text, sizeof(text), "%s step %d of %d done\n", phase, step, steps);
	if (strncmp(text, c->saved, strlen(c->saved)) != 0 || text[strlen(c->saved)] != ' ')
		snprintf(text + n, sizeof(text) - (size_t)n, "the matrix files hold every step up to %s\n", c->saved);
	if (cli_cluster_save_text(dir, "progress.txt", text) != 0)
		c->r->save_failed = 1;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* --- the run -------------------------------------------------------------------------------- */

static int launched_by_mpi(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", NULL };
	for (int i = 0; vars[i]; i++)
		if (getenv(vars[i]))
			return 1;
	return 0;
}

static double *matrix_new(int p, int root)
{
	return root ? malloc((size_t)p * p * sizeof(double)) : NULL;
}

/* The checks all ranks make the same way from the gathered placement: one rank, versions. 0, or
 * the exit code (rank 0 said why). */
static int check_place(const struct cluster_place *p)
{
	int root = p->rank == 0, first;
	if (p->size < 2) {
		error("cluster: one rank has no pairs to measure: start it as 'mpirun -np P archscope cluster' with P >= 2 "
		      "(one rank per node to compare nodes, more to see inside them)");
		return EXIT_USAGE;
	}
	if (p->size > CLUSTER_MAX_RANKS) {
		if (root)
			error("cluster: %d ranks: at most %d (the P x P matrices are gathered on rank 0)", p->size, CLUSTER_MAX_RANKS);
		return EXIT_USAGE;
	}
	int n = cluster_place_mismatch(p, &first);
	if (n > 0) {
		if (root) {
			const struct cluster_rank *a = &p->ranks[0], *b = &p->ranks[first];
			if (strcmp(a->version, b->version) != 0)
				error("cluster: rank %d on %s runs archscope %s, rank 0 on %s runs %s (%d rank%s): install one "
				      "version on every node",
				      first, b->host, b->version, a->host, a->version, n, n > 1 ? "s differ" : " differs");
			else
				error("cluster: rank %d on %s runs another build of archscope %s than rank 0 on %s (executable digest "
				      "%016llx, not %016llx; %d rank%s): install one build on every node",
				      first, b->host, b->version, a->host, (unsigned long long)b->digest, (unsigned long long)a->digest,
				      n, n > 1 ? "s differ" : " differs");
		}
		return EXIT_USAGE;
	}
	return 0;
}

/* Rank 0 prepares the output directories before the long run; everyone learns whether it can go. */
static int prepare_dirs(const struct cli_cluster_opts *o, int root)
{
	int ok = 1;
	if (root) {
		const char *dirs[3] = { o->raw_dir, o->plot_dir, o->machine_dir };
		for (int i = 0; i < 3 && ok; i++) {
			struct as_error err = { 0 };
			if (dirs[i] && plot_dir_prepare(dirs[i], &err) != 0) {
				error_err(&err);
				ok = 0;
			}
		}
	}
	MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
	return ok;
}

/* What every rank finds: the placement's shared CPUs and oversubscription, and whether pairs go
 * one at a time. Aborts the run when out of memory. */
static struct cli_cluster_result *result_new(const struct cli_cluster_opts *o, const struct cluster_place *place)
{
	struct cli_cluster_result *r = calloc(1, sizeof(*r));
	if (!r) {
		error("out of memory");
		MPI_Abort(MPI_COMM_WORLD, EXIT_FAIL);
	}
	r->o = o;
	r->place = place;
	r->size = place->size;
	r->shared_cpu_a = r->shared_cpu_b = -1;
	cluster_place_shared_cpu(place, &r->shared_cpu_a, &r->shared_cpu_b);
	int over = cluster_place_oversubscribed(place, &r->over_ranks, &r->over_cpus);
	if (over <= 0)
		r->over_ranks = r->over_cpus = 0;
	r->one_pair = o->one_pair || over > 0;
	r->one_pair_why = o->one_pair ? "asked for (--one-pair)" : over > 0 ? "a machine has more ranks than CPUs" : NULL;
	return r;
}

/* Rank 0: the matrices and node tables, and what it says about the placement before measuring.
 * Aborts the run when out of memory. */
static void root_prepare(struct cli_cluster_result *r, const struct cli_cluster_opts *o, const struct cluster_place *place)
{
	int P = place->size;
	r->nodes = calloc((size_t)place->nnodes, sizeof(*r->nodes));
	r->alike = calloc((size_t)place->nnodes, sizeof(int));
	r->lat = matrix_new(P, 1);
	r->p99 = matrix_new(P, 1);
	r->bw = matrix_new(P, 1);
	r->shift = matrix_new(P, 1);
	r->bw_spread = matrix_new(P, 1);
	r->shift_spread = matrix_new(P, 1);
	r->lat2 = matrix_new(P, 1);
	r->p99_2 = matrix_new(P, 1);
	int ok = r->nodes && r->alike && r->lat && r->p99 && r->bw && r->shift && r->bw_spread && r->shift_spread && r->lat2 &&
		 r->p99_2;
	for (int s = 0; s < o->nsizes && ok; s++)
		ok = (r->size_lat[s] = matrix_new(P, 1)) != NULL;
	if (!ok) {
		error("out of memory for %d ranks' matrices", P);
		MPI_Abort(MPI_COMM_WORLD, EXIT_FAIL);
	}
	cluster_matrix_clear(r->lat, P);
	cluster_matrix_clear(r->p99, P);
	cluster_matrix_clear(r->lat2, P);
	cluster_matrix_clear(r->p99_2, P);
	cluster_matrix_clear(r->bw, P);
	cluster_matrix_clear(r->shift, P);
	for (int s = 0; s < o->nsizes; s++)
		cluster_matrix_clear(r->size_lat[s], P);
	if (r->shared_cpu_a >= 0)
		warning("ranks %d (%s) and %d (%s) are nodes of one machine pinned to the same CPU: a busy-polling MPI "
			"answers only at the scheduler's tick (4 ms at 250 Hz); start mpirun with --bind-to none or give "
			"the nodes different CPUs",
			r->shared_cpu_a, place->ranks[r->shared_cpu_a].host, r->shared_cpu_b, place->ranks[r->shared_cpu_b].host);
	if (r->over_ranks) {
		const char *y = getenv("OMPI_MCA_mpi_yield_when_idle");
		note("a machine runs %d ranks on %d CPUs: pairs are measured one at a time, the others wait asleep%s",
		     r->over_ranks, r->over_cpus,
		     y && strcmp(y, "0") != 0 ? ""
					      : "; give mpirun --mca mpi_yield_when_idle 1, or a rank spinning for its "
						"message keeps its partner off a shared CPU for a time slice");
	}
	if (place->nnodes == 1)
		note("every rank is on one node (%s): no network between nodes is measured, only shared memory",
		     place->ranks[0].host);
}

/* Rank 0: where the run stands, for the report of a stop (a signal, a failed MPI call), --raw's
 * placement, the handlers of SIGINT and SIGTERM, and the progress callbacks. */
static void root_watch(struct cli_cluster_result *r, const struct cli_cluster_opts *o, const struct cluster_place *place,
		       struct run_ctx *ctx, struct cluster_opts *co)
{
	status.answered = calloc((size_t)place->size, 1);
	status.peer = -1;
	status_place = place;
	if (o->raw_dir) {
		static char rawmsg[4200];
		snprintf(rawmsg, sizeof(rawmsg), "--raw %s", o->raw_dir);
		status_raw = rawmsg;
		snprintf(status_stopped, sizeof(status_stopped), "%s/stopped.txt", o->raw_dir);
		status_stopped_fd = open(o->raw_dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
		snprintf(status_stopped_tmp, sizeof(status_stopped_tmp), "/proc/self/fd/%d", status_stopped_fd);
		unlink(status_stopped); /* a file from an earlier run is not this one's */
		if (cli_cluster_save_place(r, o->raw_dir) != 0)
			r->save_failed = 1;
	}
	/* one report: the other signal (mpirun sends SIGTERM after the SIGINT) waits */
	struct sigaction sa = { .sa_handler = on_stop };
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	co->progress = on_progress;
	co->step_done = on_step_done;
	co->arg = ctx;
	co->status = &status;
}

/* Rank 0 after every phase: the results rendered, --raw, --plot and --machine-files written, and
 * the exit code (1 when standard output or a file could not be written). */
static int root_finish(struct cli_cluster_result *r, const struct cli_cluster_opts *o, uint64_t t_start)
{
	r->seconds = (double)(timer_now_ns() - t_start) * 1e-9;
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	struct emit *e = emit_new(o->json ? EMIT_JSON : EMIT_TEXT, stdout);
	if (!e)
		return error("out of memory"), EXIT_FAIL;
	cli_cluster_render(e, r);
	if (o->raw_dir && cli_cluster_save_all(r, o->raw_dir) != 0)
		r->save_failed = 1;
	if (o->plot_dir)
		cli_cluster_plot(r, o->plot_dir);
	if (o->machine_dir && cli_cluster_machine_files(r, o->machine_dir) != 0)
		r->save_failed = 1;
	int code = cli_emit_end(e, "cluster");
	if (fflush(stdout) != 0 || ferror(stdout)) {
		error("write error on standard output");
		code = EXIT_FAIL;
	}
	if (!code && r->save_failed)
		code = EXIT_FAIL;
	return code;
}

int main(int argc, char **argv)
{
	struct cli_cluster_opts o;
	char *name = argv[0];
	argv[0] = "cluster";
	int rc = cli_cluster_parse(argc, argv, &o);
	argv[0] = name;
	if (rc < 0)
		return opt_exit_code(rc);
	if (!launched_by_mpi()) {
		error("cluster: not started by mpirun: run it as 'mpirun -np P [--host H1:N,H2:N] archscope cluster ...' with P >= 2");
		return EXIT_USAGE;
	}
	if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
		error("cluster: MPI_Init failed");
		return EXIT_FAIL;
	}
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	cond_clock_source(clock_window_ghz); /* each step's clock, as the archscope binary's main does */
	uint64_t t_start = timer_now_ns();
	struct cluster_place place;
	struct as_error err = { 0 };
	if (cluster_place_init(&place, MPI_COMM_WORLD, ARCHSCOPE_VERSION, &err) != 0) {
		error_err(&err);
		MPI_Abort(MPI_COMM_WORLD, EXIT_FAIL);
		return EXIT_FAIL;
	}
	int root = place.rank == 0;
	if (!root)
		cli_quiet = 1; /* only rank 0 talks; errors still print */
	rc = check_place(&place);
	if (rc) {
		cluster_place_release(&place);
		MPI_Finalize();
		return rc;
	}
	struct cli_cluster_result *r = result_new(&o, &place);
	if (root)
		root_prepare(r, &o, &place);
	if (!prepare_dirs(&o, root)) {
		cluster_place_release(&place);
		MPI_Finalize();
		return EXIT_FAIL;
	}
	struct run_ctx ctx = { .r = r };
	struct cluster_opts co = { .reps = o.reps, .bw_bytes = o.bw_bytes, .window = o.window, .bursts = o.bursts,
				   .one_pair = r->one_pair, .bw_spread = r->bw_spread,
				   .shift_spread = r->shift_spread };
	if (root)
		root_watch(r, &o, &place, &ctx, &co);
	rc = cli_cluster_run_all(r, &place, &o, &co, &err);
	if (rc) {
		/* an MPI call failed (a rank died, the run is being torn down): the ranks are out of
		 * step; rank 0 says where it was and saves what it has */
		progress_done();
		error_err(&err);
		if (root) {
			signal(SIGTERM, SIG_IGN); /* what follows is the report mpirun's SIGTERM would give */
			report_stop("an MPI call that failed (a rank died or mpirun is ending the run)");
			if (o.raw_dir)
				cli_cluster_save_matrices(r, o.raw_dir);
		}
		MPI_Abort(MPI_COMM_WORLD, EXIT_FAIL);
		return EXIT_FAIL;
	}
	int code = root ? root_finish(r, &o, t_start) : EXIT_OK;
	MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Finalize();
	return code;
}
