/* archscope-cluster's phases, in the order every rank runs them: the node leaders' quick probes
 * (gathered on rank 0), latency, bandwidth, shift, latency per size, the layers (rank 0) and their
 * LogGP pairs, contention; each phase's time. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cli/cli.h"
#include "cli/cluster/cmd-cluster-impl.h"
#include "common/conditions.h"
#include "common/timer.h"

/* The CPU a leader probes on: leaders on one machine (namespaces of one kernel) take different
 * CPUs of their sets, the others their first. */
static int leader_cpu(const struct cluster_place *p)
{
	const struct cluster_rank *me = &p->ranks[p->rank];
	struct as_cpulist cpus;
	cluster_rank_cpus(me, &cpus);
	if (cpus.n == 0)
		return 0;
	int idx = 0;
	for (int n = 0; n < me->node; n++)
		if (strcmp(p->ranks[p->leader[n]].boot_id, me->boot_id) == 0)
			idx++;
	return cpus.cpu[idx % cpus.n];
}

/* The leaders before and after this node's on its machine (same boot id), -1 none: the probes of
 * one machine run one after another, each leader handing the next a token, so that nodes of one
 * machine do not measure beside each other's probes. */
static void machine_turn(const struct cluster_place *p, int *prev, int *next)
{
	const struct cluster_rank *me = &p->ranks[p->rank];
	*prev = *next = -1;
	for (int n = 0; n < p->nnodes; n++) {
		if (n == me->node || strcmp(p->ranks[p->leader[n]].boot_id, me->boot_id) != 0)
			continue;
		if (n < me->node)
			*prev = p->leader[n];
		else if (*next < 0)
			*next = p->leader[n];
	}
}

static int measure_leader(const struct cluster_place *p, const struct cli_cluster_opts *o, struct cluster_node_fig *fig)
{
	const struct cluster_rank *me = &p->ranks[p->rank];
	int prev, next, token = 0;
	machine_turn(p, &prev, &next);
	if (prev >= 0) {
		MPI_Request rq;
		if (MPI_Irecv(&token, 1, MPI_INT, prev, 78, MPI_COMM_WORLD, &rq) != MPI_SUCCESS || cluster_wait_idle(&rq, 1) != 0)
			return -EIO;
	}
	struct cluster_node_opts no = { .figures = o->figures, .cpu = leader_cpu(p), .max_bytes = o->node_bytes, .seed = o->seed };
	struct as_error e = { 0 };
	if (cluster_node_measure(&no, fig, &e) != 0 && !fig->failed[0])
		snprintf(fig->failed, sizeof(fig->failed), "%.190s", e.msg);
	fig->pmu = me->pmu;
	/* the leader's thread is pinned now; the pair sweeps run where MPI placed the rank */
	struct as_cpulist mine;
	cluster_rank_cpus(me, &mine);
	cpu_allow_self(&mine, &e);
	if (next >= 0 && MPI_Send(&token, 1, MPI_INT, next, 78, MPI_COMM_WORLD) != MPI_SUCCESS)
		return -EIO;
	return 0;
}

static int phase_nodes(struct cli_cluster_result *r, const struct cluster_place *p, const struct cli_cluster_opts *o,
		       struct cluster_status *status, struct as_error *err)
{
	const struct cluster_rank *me = &p->ranks[p->rank];
	struct cluster_node_fig fig;
	memset(&fig, 0, sizeof(fig));
	int rc = 0;
	if (me->node_rank == 0 && measure_leader(p, o, &fig) != 0)
		return as_error_set(err, -EIO, "handing the node probes' turn on a machine failed");
	if (p->rank == 0) {
		r->nodes[0] = fig;
		MPI_Request *rq = malloc((size_t)p->nnodes * sizeof(*rq));
		if (!rq)
			return as_error_set(err, -ENOMEM, "out of memory");
		rq[0] = MPI_REQUEST_NULL;
		for (int n = 1; n < p->nnodes; n++)
			if (MPI_Irecv(&r->nodes[n], (int)sizeof(fig), MPI_BYTE, p->leader[n], 77, MPI_COMM_WORLD, &rq[n]) != MPI_SUCCESS)
				rc = -EIO;
		if (rc == 0)
			status->phase = "nodes", status->waiting = 0, status->peer = -1;
		if (rc == 0 && cluster_wait_idle(rq, p->nnodes) != 0)
			rc = -EIO;
		free(rq);
	} else if (me->node_rank == 0) {
		if (MPI_Send(&fig, (int)sizeof(fig), MPI_BYTE, 0, 77, MPI_COMM_WORLD) != MPI_SUCCESS)
			rc = -EIO;
	}
	if (rc == 0 && cluster_barrier_idle(MPI_COMM_WORLD) != 0)
		rc = -EIO;
	if (rc)
		return as_error_set(err, rc, "gathering the node figures failed");
	return 0;
}

static void phase_time(struct cli_cluster_result *r, const char *phase, int steps, uint64_t t0)
{
	if (r->nphases < CLI_CLUSTER_MAX_PHASES)
		r->phase[r->nphases++] = (struct cli_cluster_phase_time){ phase, steps, (double)(timer_now_ns() - t0) * 1e-9 };
}

/* Rank 0: the layer classes of the pairs for --budget, from the latency alone (NULL: none). */
static struct cluster_layers *budget_layers(struct cli_cluster_result *r, const struct cli_cluster_opts *o,
					    struct cluster_layers *L)
{
	int P = r->size, ok;
	struct as_error e = { 0 };
	int *node_of = malloc((size_t)P * sizeof(int));
	for (int i = 0; node_of && i < P; i++)
		node_of[i] = r->place->ranks[i].node;
	ok = node_of && cluster_layers_build(P, r->lat, r->p99, NULL, NULL, node_of, o->gap, L, &e) == 0;
	free(node_of);
	return ok ? L : NULL;
}

/* Bandwidth (which 0) or the shift (1) under --budget: the steps ordered by layer class, run while
 * they fit in the time left (half of it for bandwidth when the shift follows). */
static int budgeted_sweep(struct cli_cluster_result *r, const struct cli_cluster_opts *o, struct cluster_run *run,
			  struct cluster_opts *co, int which, struct as_error *err)
{
	struct cluster_layers L;
	struct cluster_layers *lp = run->rank == 0 ? budget_layers(r, o, &L) : NULL;
	struct cluster_sweep_budget b;
	int rc = cluster_sweep_plan(run, lp, which, &b, err);
	if (lp)
		cluster_layers_release(lp);
	if (rc == 0) {
		double now = (double)timer_now_ns() * 1e-9, end = (double)r->start_ns * 1e-9 + o->budget_s;
		int shift_follows = which == 0 && !(o->skip & CLI_CLUSTER_SKIP_SHIFT);
		b.deadline_s = shift_follows ? now + (end - now) / 2 : end;
		co->budget = &b;
		rc = which ? cluster_sweep_shift(run, r->shift, err) : cluster_sweep_bandwidth(run, r->bw, err);
		co->budget = NULL;
		r->budgeted[which] = 1;
		r->budget_ran[which] = b.ran;
		r->budget_steps[which] = b.n;
		r->budget_floor[which] = b.floor;
		r->budget_over[which] = b.over;
	}
	cluster_sweep_budget_release(&b);
	return rc;
}

/* What the sweeps ran in, per machine: its first rank (lowest of its boot id) holds a conditions
 * window over them; every rank's own CPU time and switches are counted as the machine's own, so
 * what is left is other work's (the slow links' verdict is flagged where it was disturbed). */
struct sweep_cond {
	struct cond_window w;
	int first;
	double cpu0_s, sw0;
};

static double own_usage(double *switches)
{
	struct rusage u;
	getrusage(RUSAGE_SELF, &u);
	*switches = (double)u.ru_nvcsw + (double)u.ru_nivcsw;
	return (double)u.ru_utime.tv_sec + (double)u.ru_stime.tv_sec + 1e-6 * ((double)u.ru_utime.tv_usec + (double)u.ru_stime.tv_usec);
}

static void sweep_cond_begin(const struct cluster_place *p, struct sweep_cond *sc)
{
	sc->first = 1;
	for (int i = 0; i < p->rank; i++)
		if (strcmp(p->ranks[i].boot_id, p->ranks[p->rank].boot_id) == 0)
			sc->first = 0;
	if (sc->first)
		cond_window_begin(&sc->w, NULL, NULL, 0);
	sc->cpu0_s = own_usage(&sc->sw0);
}

/* Every rank: closes the windows; rank 0 keeps the worst machine's conditions in r. */
static int sweep_cond_end(struct cli_cluster_result *r, const struct cluster_place *p, struct sweep_cond *sc)
{
	int P = p->size, rc = 0;
	double sw, mine[2], *all = malloc(2 * sizeof(double) * (size_t)P);
	struct conditions c, *each = p->rank == 0 ? malloc(sizeof(c) * (size_t)P) : NULL;
	mine[0] = own_usage(&sw) - sc->cpu0_s;
	mine[1] = sw - sc->sw0;
	memset(&c, 0, sizeof(c));
	c.attempts = 0; /* 0: no window here */
	if (!all || (p->rank == 0 && !each) || MPI_Allgather(mine, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, MPI_COMM_WORLD) != MPI_SUCCESS)
		rc = -EIO;
	if (sc->first) {
		double cpu = 0, n = 0;
		for (int i = 0; rc == 0 && i < P; i++)
			if (i != p->rank && strcmp(p->ranks[i].boot_id, p->ranks[p->rank].boot_id) == 0)
				cpu += all[2 * i], n += all[2 * i + 1];
		cond_window_own(&sc->w, cpu, n);
		cond_window_end(&sc->w, &c);
		c.attempts = 1;
	}
	if (rc == 0 && MPI_Gather(&c, (int)sizeof(c), MPI_BYTE, each, (int)sizeof(c), MPI_BYTE, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
		rc = -EIO;
	for (int i = 0; rc == 0 && p->rank == 0 && i < P; i++) {
		const struct conditions *x = &each[i];
		if (x->attempts < 1)
			continue;
		if (!r->have_sweep_cond || (x->noisy && !r->sweep_cond.noisy) ||
		    (x->noisy == r->sweep_cond.noisy && x->foreign_cpus > r->sweep_cond.foreign_cpus))
			r->sweep_cond = *x;
		r->have_sweep_cond = 1;
	}
	free(all);
	free(each);
	return rc;
}

/* The sweeps: latency, bandwidth one pair at a time, the shift, latency again (slow links need
 * each figure twice), latency per message size. */
static int phase_sweeps(struct cli_cluster_result *r, const struct cluster_place *p, const struct cli_cluster_opts *o,
			struct cluster_run *run, struct cluster_opts *co, struct as_error *err)
{
	int P = run->size, rc;
	int rounds = run->o->one_pair ? P * (P - 1) / 2 : cluster_rounds(P);
	struct sweep_cond sc;
	sweep_cond_begin(p, &sc);
	uint64_t t0 = timer_now_ns();
	if ((rc = cluster_sweep_latency(run, 8, r->lat, r->p99, err)) != 0)
		return rc;
	phase_time(r, "latency", rounds, t0);
	if (!(o->skip & CLI_CLUSTER_SKIP_BANDWIDTH)) {
		t0 = timer_now_ns();
		rc = o->budget_s > 0 ? budgeted_sweep(r, o, run, co, 0, err) : cluster_sweep_bandwidth(run, r->bw, err);
		if (rc != 0)
			return rc;
		phase_time(r, "bandwidth", r->budgeted[0] ? r->budget_ran[0] : rounds, t0);
	}
	if (!(o->skip & CLI_CLUSTER_SKIP_SHIFT)) {
		t0 = timer_now_ns();
		rc = o->budget_s > 0 ? budgeted_sweep(r, o, run, co, 1, err) : cluster_sweep_shift(run, r->shift, err);
		if (rc != 0)
			return rc;
		phase_time(r, "shift", r->budgeted[1] ? r->budget_ran[1] : P - 1, t0);
	}
	if (P >= 3) { /* fewer ranks: no median, no slow links */
		t0 = timer_now_ns();
		if ((rc = cluster_sweep_latency_as(run, "latency again", 8, r->lat2, r->p99_2, err)) != 0)
			return rc;
		phase_time(r, "latency again", rounds, t0);
	}
	if (sweep_cond_end(r, p, &sc) != 0)
		return as_error_set(err, -EIO, "gathering the sweeps' conditions failed");
	for (int s = 0; s < o->nsizes; s++) {
		t0 = timer_now_ns();
		if ((rc = cluster_sweep_latency(run, o->sizes[s], r->size_lat[s], NULL, err)) != 0)
			return rc;
		phase_time(r, "latency per size", rounds, t0);
	}
	return 0;
}

/* The layers, on rank 0, and their representative pairs to every rank in reps: count, then
 * (layer, a, b) each. 0, or -EIO when the broadcast failed. */
static int phase_layers(struct cli_cluster_result *r, const struct cluster_place *p, const struct cli_cluster_opts *o,
			int reps[3 * CLUSTER_MAX_LAYERS + 1], struct as_error *err)
{
	int P = p->size;
	if (p->rank == 0) {
		struct as_error e = { 0 };
		int *node_of = malloc((size_t)P * sizeof(int));
		for (int i = 0; node_of && i < P; i++)
			node_of[i] = p->ranks[i].node;
		r->have_layers = cluster_layers_build(P, r->lat, r->p99, r->bw, r->shift, node_of, o->gap, &r->layers, &e) == 0;
		free(node_of);
		if (!r->have_layers)
			note("no layers: %s", e.msg);
		for (int k = 0; r->have_layers && k < r->layers.n; k++)
			if (r->layers.layer[k].rep_a >= 0) {
				reps[1 + 3 * reps[0]] = k;
				reps[2 + 3 * reps[0]] = r->layers.layer[k].rep_a;
				reps[3 + 3 * reps[0]] = r->layers.layer[k].rep_b;
				reps[0]++;
			}
	}
	if (MPI_Bcast(reps, 3 * CLUSTER_MAX_LAYERS + 1, MPI_INT, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
		return as_error_set(err, -EIO, "MPI_Bcast of the layers failed");
	return 0;
}

/* LogGP of each layer's representative pair (netgauge's PRTT). */
static int phase_loggp(struct cli_cluster_result *r, const struct cli_cluster_opts *o, struct cluster_opts *co,
		       struct cluster_run *run, const int reps[3 * CLUSTER_MAX_LAYERS + 1], struct as_error *err)
{
	int root = run->rank == 0, rc;
	uint64_t t0 = timer_now_ns();
	for (int k = 0; k < reps[0]; k++) {
		struct cluster_prtt m;
		int li = reps[1 + 3 * k], a = reps[2 + 3 * k], b = reps[3 + 3 * k];
		if (root) {
			co->status->phase = "loggp", co->status->step = k + 1, co->status->steps = reps[0], co->status->waiting = 0;
			co->status->peer = a == 0 ? b : b == 0 ? a : -1;
			progress("cluster: LogGP (PRTT) between ranks %d and %d, layer %d of %d", a, b, k + 1, reps[0]);
		}
		if ((rc = cluster_prtt_measure(run, a, b, o->reps, &m, err)) != 0)
			return rc;
		if (root) {
			cluster_loggp_derive(&m, &r->loggp[li]);
			r->loggp[li].a = a;
			r->loggp[li].b = b;
		}
	}
	r->loggp_measured = 1;
	phase_time(r, "loggp", reps[0], t0);
	return 0;
}

/* osu_latency, osu_bw and osu_bibw per message size for each layer's representative pair. */
static int phase_p2p(struct cli_cluster_result *r, const struct cli_cluster_opts *o, struct cluster_opts *co,
		     struct cluster_run *run, const int reps[3 * CLUSTER_MAX_LAYERS + 1], struct as_error *err)
{
	int root = run->rank == 0, rc;
	uint64_t t0 = timer_now_ns();
	for (int k = 0; k < reps[0]; k++) {
		int li = reps[1 + 3 * k], a = reps[2 + 3 * k], b = reps[3 + 3 * k];
		if (root) {
			co->status->phase = "point to point", co->status->step = k + 1, co->status->steps = reps[0];
			co->status->waiting = 0, co->status->peer = a == 0 ? b : b == 0 ? a : -1;
			progress("cluster: osu_latency, osu_bw, osu_bibw between ranks %d and %d, layer %d of %d", a, b, k + 1, reps[0]);
		}
		struct cluster_p2p m;
		if ((rc = cluster_p2p_measure(run, a, b, o->p2p_sizes, o->np2p, o->osu_counts, &m, err)) != 0)
			return rc;
		if (root) {
			r->p2p[r->np2p] = m;
			r->p2p_layer[r->np2p++] = li;
			if (o->raw_dir && cli_cluster_save_p2p(r, o->raw_dir) != 0) /* each pair kept as it is done */
				r->save_failed = 1;
		}
	}
	phase_time(r, "point to point", reps[0], t0);
	return 0;
}

/* The collectives, and on rank 0 the model of each from the LogGP of its communicator's layer. */
static int phase_coll(struct cli_cluster_result *r, const struct cluster_place *p, const struct cli_cluster_opts *o,
		      struct cluster_run *run, struct as_error *err)
{
	uint64_t t0 = timer_now_ns();
	int n = cluster_coll_measure(run, p, o->coll_sizes, o->ncoll, r->coll, CLI_CLUSTER_MAX_COLL, err);
	if (n < 0)
		return n;
	phase_time(r, "collectives", 1 + (p->nnodes >= 2 && p->nnodes < p->size) + (p->node_size[0] >= 2 && p->node_size[0] < p->size), t0);
	if (p->rank != 0)
		return 0;
	r->ncoll = n;
	int *ranks = malloc((size_t)p->size * sizeof(int)), layer_of[CLUSTER_COMM_KINDS] = { -1, -1, -1 };
	for (int k = 0; ranks && r->have_layers && k < CLUSTER_COMM_KINDS; k++) {
		int m = 0;
		for (int i = 0; i < p->size; i++)
			if (k == CLUSTER_COMM_WORLD || (k == CLUSTER_COMM_LEADERS && p->ranks[i].node_rank == 0) ||
			    (k == CLUSTER_COMM_NODE && p->ranks[i].node == 0))
				ranks[m++] = i;
		layer_of[k] = cluster_comm_layer(&r->layers, ranks, m);
	}
	free(ranks);
	if (r->loggp_measured && r->have_layers)
		cluster_coll_model(r->coll, r->ncoll, layer_of, r->loggp, r->layers.n);
	else
		cluster_coll_model(r->coll, r->ncoll, (const int[CLUSTER_COMM_KINDS]){ -1, -1, -1 }, r->loggp, 0);
	return 0;
}

int cli_cluster_run_all(struct cli_cluster_result *r, const struct cluster_place *p, const struct cli_cluster_opts *o,
		   struct cluster_opts *co, struct as_error *err)
{
	int root = p->rank == 0, rc;
	struct cluster_run run = { .comm = MPI_COMM_WORLD, .rank = p->rank, .size = p->size, .o = co };
	uint64_t t0;
	r->start_ns = timer_now_ns();
	if (!(o->skip & CLI_CLUSTER_SKIP_NODES) && o->figures) {
		t0 = timer_now_ns();
		if (root)
			progress("cluster: the %d node leader%s run the probes (at once; nodes of one machine one after another) ...",
				 p->nnodes, p->nnodes > 1 ? "s" : "");
		if ((rc = phase_nodes(r, p, o, co->status, err)) != 0)
			return rc;
		phase_time(r, "nodes", 1, t0);
		if (root) {
			r->nodes_measured = 1;
			r->machine = malloc((size_t)p->nnodes * sizeof(int));
			r->shares_cpus = malloc((size_t)p->nnodes * sizeof(int));
			if (r->machine && r->shares_cpus)
				cluster_nodes_machines(p, r->machine, r->shares_cpus);
			r->noutliers = cluster_nodes_compare_machines(r->nodes, p->nnodes, r->shares_cpus ? r->machine : NULL, 0.02,
								      r->outliers, CLI_CLUSTER_MAX_OUTLIERS, r->alike);
		}
	}
	if ((rc = phase_sweeps(r, p, o, &run, co, err)) != 0)
		return rc;
	int reps[3 * CLUSTER_MAX_LAYERS + 1] = { 0 }; /* count, then (layer, a, b) */
	if ((rc = phase_layers(r, p, o, reps, err)) != 0)
		return rc;
	if (root)
		cli_cluster_find_slow(r);
	if (!(o->skip & CLI_CLUSTER_SKIP_LOGGP) && (rc = phase_loggp(r, o, co, &run, reps, err)) != 0)
		return rc;
	if (!(o->skip & CLI_CLUSTER_SKIP_P2P) && (rc = phase_p2p(r, o, co, &run, reps, err)) != 0)
		return rc;
	if (!(o->skip & CLI_CLUSTER_SKIP_COLLECTIVES) && (rc = phase_coll(r, p, o, &run, err)) != 0)
		return rc;
	if (!(o->skip & CLI_CLUSTER_SKIP_CONTENTION)) {
		t0 = timer_now_ns();
		rc = cluster_contention_measure(&run, p, r->cont, CLI_CLUSTER_MAX_CONTENTION, err);
		if (rc < 0)
			return rc;
		if (root)
			r->ncont = rc;
		phase_time(r, "contention", rc, t0);
	}
	if (root)
		progress_done();
	return 0;
}
