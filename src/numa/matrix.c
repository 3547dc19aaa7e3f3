/* Measuring the NUMA matrices (see matrix.h): the probe's pointer chase in two patterns (page-
 * segmented as the caches curve, and one random cycle over every line) on memory bound to node j
 * from a thread pinned on node i, and bench's streaming runner with bench's repetitions and pages,
 * its team started from a thread whose memory policy binds node j, so every stream its members
 * first-touch lands there. */
#include "common/conditions.h"
#include "numa/matrix.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/kernels.h"
#include "bench/run.h"
#include "common/buffer.h"
#include "common/rng.h"
#include "probe/chase.h"
#include "probe/memory.h"

#define DEFAULT_BYTES ((size_t)1 << 30)

/* One measurement in a thread of its own, so the caller's affinity and memory policy stay. */
struct job {
	const struct numa_matrix_opts *o;
	int cpu;                   /* latency: pin here */
	int random;                /* latency: one random cycle over every line (else page-segmented) */
	size_t line;               /* latency: slot spacing */
	int node;                  /* OS node of the memory */
	size_t bytes;
	struct as_cpulist cpus;    /* bandwidth: the team */
	const struct bench_kernel *k;
	double min_ns, median_ns, placed;
	struct bench_result res;
	int rc;
	struct as_error err;
};

/* One pass: a fresh buffer bound to the node, linked in a new random order, timed. */
static int latency_pass(struct job *j, size_t *off, size_t line, struct rng *r, double *min_ns, double *median_ns)
{
	struct buffer buf;
	struct probe_curve c;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int rc = buffer_alloc(&buf, j->bytes, HUGE_ALWAYS, &j->err);
	if (rc)
		return rc;
	probe_curve_init(&c);
	if ((rc = numa_place_memory(buf.data, buf.mapped, j->node, &j->err)) == 0) {
		/* random: one segment as large as the buffer, a single random order over every line */
		size_t count = chase_order_segmented(r, j->bytes, line, j->random ? j->bytes : page, off);
		struct probe_opts po = { .quick = j->o->quick, .seed = j->o->seed, .stop = j->o->stop, .huge = HUGE_ALWAYS };
		if (count == 0 || probe_slots_measure(&po, buf.data, off, count, (double)j->bytes, &c) != 0 || c.n != 1) {
			rc = as_error_set(&j->err, -ENOMEM, "out of memory for the chase");
		} else {
			*min_ns = c.min_ns[0];
			*median_ns = c.median_ns[0];
			double placed = numa_place_check(buf.data, j->bytes, j->node, 64);
			if (!(placed >= j->placed)) /* the worst pass */
				j->placed = placed;
		}
	}
	probe_curve_release(&c);
	buffer_release(&buf);
	return rc;
}

/* Several passes on fresh buffers at different times, as the probe's caches sweep: a neighbour's
 * burst or an unlucky placement spoils one pass, not the minimum over passes. */
static void *latency_job(void *p)
{
	struct job *j = p;
	size_t line = j->line;
	/* the random pattern takes a second or more per GiB just to link: fewer passes */
	int passes = j->random ? (j->o->quick ? 1 : 2) : (j->o->quick ? 2 : 3);
	double med[3];
	j->min_ns = INFINITY;
	j->placed = INFINITY;
	if ((j->rc = cpu_pin_self(j->cpu, &j->err)) != 0)
		return NULL;
	size_t *off = malloc((j->bytes / line + 1) * sizeof(size_t));
	if (!off) {
		j->rc = as_error_set(&j->err, -ENOMEM, "out of memory for %zu chase slots", j->bytes / line);
		return NULL;
	}
	struct rng r;
	rng_init(&r, j->o->seed);
	int done = 0;
	for (; done < passes && !(j->o->stop && *j->o->stop); done++) {
		double mn = NAN, md = NAN;
		if ((j->rc = latency_pass(j, off, line, &r, &mn, &md)) != 0)
			break;
		j->min_ns = fmin(j->min_ns, mn);
		med[done] = md;
	}
	free(off);
	if (!isfinite(j->placed))
		j->placed = NAN;
	j->median_ns = done == 0 ? NAN : done == 1 ? med[0] : done == 2 ? 0.5 * (med[0] + med[1])
			  : fmax(fmin(med[0], med[1]), fmin(fmax(med[0], med[1]), med[2]));
	if (done == 0)
		j->min_ns = NAN;
	return NULL;
}

static void *bandwidth_job(void *p)
{
	struct job *j = p;
	if ((j->rc = numa_place_thread_memory(j->node, &j->err)) != 0)
		return NULL;
	struct bench_opts bo = {
		.kernel = j->k, .size_bytes = j->bytes, .cpus = j->cpus, .reps = j->o->quick ? 3 : 5,
		.min_time_s = j->o->quick ? 0.05 : 0.1, /* bench's defaults; huge pages, stream offset 256 B */
	};
	j->rc = bench_run(&bo, &j->res, &j->err);
	return NULL;
}

static int job_run(void *(*fn)(void *), struct job *j, struct as_error *err)
{
	pthread_t th;
	int e = pthread_create(&th, NULL, fn, j);
	if (e)
		return as_error_set(err, -e, "cannot start a measurement thread");
	pthread_join(th, NULL);
	if (j->rc) {
		if (err)
			*err = j->err;
		return j->rc;
	}
	return 0;
}

/* A latency chase as a step of the conditions module (cond_step). */
struct latency_step {
	struct job *jb;
	struct as_error *err;
};

static int latency_step_run(void *arg, int attempt)
{
	struct latency_step *x = arg;
	(void)attempt;
	return job_run(latency_job, x->jb, x->err);
}

/* The working set asked for, cut to a quarter of the available memory and of node j's memory. */
static size_t cut(size_t want, const struct topo *t, int j)
{
	size_t avail = buffer_mem_available(), node = (size_t)t->nodes[j].memory_bytes;
	if (avail && want > avail / 4)
		want = avail / 4;
	if (node && want > node / 4)
		want = node / 4;
	return want & ~(size_t)0xfffff; /* whole MiB */
}

int numa_matrix_measure(struct numa_matrix *m, const struct topo *t, const struct numa_matrix_opts *o,
			struct as_error *err)
{
	numa_matrix_init(m, t);
	const struct bench_kernel *k = bench_kernel_best(o->kernel ? o->kernel : "load");
	if (!k || !bench_kernel_supported(k))
		return as_error_set(err, -EINVAL, "no streaming kernel '%s' on this CPU", o->kernel ? o->kernel : "load");
	snprintf(m->kernel, sizeof(m->kernel), "%s-%s", k->name, k->variant);
	m->write_allocate = bench_bytes_real(k) != bench_bytes_app(k);
	m->seed = o->seed;
	m->placement = numa_place_available();
	m->latency_bytes = o->latency_bytes ? o->latency_bytes : DEFAULT_BYTES;
	m->bandwidth_bytes = o->bandwidth_bytes ? o->bandwidth_bytes : DEFAULT_BYTES;
	m->line_bytes = o->line_bytes >= 8 && o->line_bytes <= 4096 ? (double)o->line_bytes : 64;
	m->reps = o->quick ? 3 : 5;
	m->bandwidth_huge_fraction = 1;
	m->min_time_s = o->quick ? 0.05 : 0.1;
	enum { WHATS = 4 };
	int total = WHATS * m->n * m->n, done = 0;
	for (int i = 0; i < m->n; i++) {
		struct as_cpulist cpus;
		numa_node_cpus(t, i, &cpus);
		if (cpus.n > 64)
			cpus.n = 64; /* bench's team limit */
		m->cpus[i] = cpus.n;
		for (int j = 0; j < m->n; j++) {
			/* A node without CPUs (memory only, as CXL memory) reads nothing; a node without
			 * memory (CPUs only) is read from nowhere: their pairs stay NAN (null). */
			if (cpus.n == 0 || (t->nnodes > 1 && t->nodes[j].memory_bytes == 0)) {
				done += WHATS;
				continue;
			}
			size_t lat = cut(m->latency_bytes, t, j), bw = cut(m->bandwidth_bytes, t, j);
			if (lat < m->latency_bytes)
				m->latency_bytes = lat;
			if (bw < m->bandwidth_bytes)
				m->bandwidth_bytes = bw;
			for (int what = 0; what < WHATS; what++, done++) {
				if (o->stop && *o->stop)
					return 0;
				static const char *const names[] = { "latency, page-local", "latency, random", "bandwidth, 1 thread",
								     "bandwidth, all CPUs" };
				if (o->progress)
					o->progress(o->arg, i, j, names[what], done, total);
				struct job jb = { .o = o, .cpu = cpus.cpu[0], .node = m->node[j], .k = k, .cpus = cpus,
						  .random = what == 1, .line = (size_t)m->line_bytes };
				jb.bytes = what <= 1 ? lat : bw;
				if (what == 2)
					jb.cpus.n = 1;
				struct conditions cond;
				struct as_cpulist pinned = { .n = 1, .cpu = { jb.cpu } };
				struct latency_step ls = { &jb, err };
				int rc;
				if (what <= 1) { /* the chase runs on one CPU: measured again once where disturbed */
					rc = cond_step(&pinned, COND_SHARED, COND_STEP_ATTEMPTS, o->stop, latency_step_run, &ls, &cond);
				} else { /* bench_run judges and re-measures the bandwidth runs itself */
					rc = job_run(bandwidth_job, &jb, err);
					cond = jb.res.cond;
				}
				if (!rc && cond.noisy) {
					m->noisy[i][j] |= (unsigned char)(1u << what);
					if (m->noisy_count++ == 0)
						snprintf(m->noisy_first, sizeof(m->noisy_first), "node %d reading node %d, %s: %s",
							 m->node[i], m->node[j], names[what], cond.why);
				}
				if (rc) {
					as_error_prefix(err, "node %d reading node %d, %s: ", m->node[i], m->node[j], names[what]);
					return rc;
				}
				if (what == 0) {
					m->latency_ns[i][j] = jb.min_ns;
					m->latency_median_ns[i][j] = jb.median_ns;
					m->placed[i][j] = jb.placed;
				} else if (what == 1) {
					m->latency_random_ns[i][j] = jb.min_ns;
					m->latency_random_median_ns[i][j] = jb.median_ns;
				} else if (what == 2) {
					m->bandwidth_huge_fraction = fmin(m->bandwidth_huge_fraction, jb.res.huge_fraction);
					m->bandwidth_1thread_gbs[i][j] = jb.res.gbs_real.median;
				} else {
					m->bandwidth_huge_fraction = fmin(m->bandwidth_huge_fraction, jb.res.huge_fraction);
					m->bandwidth_gbs[i][j] = jb.res.gbs_real.median;
				}
			}
		}
	}
	m->complete = !(o->stop && *o->stop);
	return 0;
}
