/* A machine as the models use it: plain numbers read from a machine file (machine/read.c fills
 * it, machine/write.c writes it), so model code needs no YAML. Sizes in bytes, rates in bytes per
 * cycle or bytes per second. */
#ifndef ARCHSCOPE_MACHINE_MACHINE_H
#define ARCHSCOPE_MACHINE_MACHINE_H

#define MACHINE_MAX_LEVELS 8
#define MACHINE_MAX_KERNELS 16
#define MACHINE_MAX_CORES 64
#define MACHINE_MAX_SETTINGS 8

enum machine_replacement { REPL_LRU, REPL_FIFO, REPL_RANDOM };

struct machine_level {
	char name[16];
	int has_cache;
	long sets, ways, cl_size;
	double size_bytes;          /* sets x ways x cl_size, or "size per group" */
	long groups, cores_per_group, threads_per_group;
	enum machine_replacement replacement;
	int write_allocate, write_back;  /* Kerncraft's defaults: true, true */
	int inclusive;                   /* archscope's "inclusion: inclusive": evictions invalidate above */
	char load_from[16], store_to[16], victims_to[16]; /* level names, "" for none */
	double upstream_bytes_per_cy;    /* 0 when the file gives no number */
	int upstream_full_duplex;
	int upstream_is_memory;          /* "full socket memory bandwidth": from the benchmarks */
	char upstream_text[64];          /* the first entry of "upstream throughput", "" for none */
#define MACHINE_UPSTREAM_NOT_MEASURED "not measured" /* probe -o: a level the ECM fit gave no positive cost */
	int transfers_overlap;
};

/* A streaming benchmark kernel: its streams (Kerncraft: "read streams", ...) and flops. */
struct machine_bench_kernel {
	char name[32];
	char bench_name[32];  /* "fastest bench kernel": likwid-bench's name (copy_avx512), "" for none */
	double flops_per_it;
	double read_bytes, write_bytes, rw_bytes;
	int read_streams, write_streams, rw_streams;
};

/* Measurements of one memory level with one thread per core: bandwidth (B/s, as the application
 * counts it, without write-allocate) per kernel and core count. bw 0 = not measured; NAN = not
 * run (probe -o interrupted): the writer ends a kernel's list before it. The working sets are 0
 * where the file gives none. */
struct machine_bench_level {
	char level[16];
	int ncores;
	int cores[MACHINE_MAX_CORES];
	double bw[MACHINE_MAX_KERNELS][MACHINE_MAX_CORES];
	double size_per_core_bytes[MACHINE_MAX_CORES];
	double size_per_thread_bytes[MACHINE_MAX_CORES];
	double total_bytes[MACHINE_MAX_CORES];
};

/* A named text setting: a compiler and its flags, an in-core model and its CPU name. */
struct machine_setting {
	char name[32];
	char value[256];
};

struct machine {
	char kerncraft_version[32];      /* "" when absent */
	char model_name[128];
	char model_type[128];
	char isa[16];
	double clock_hz;
	long sockets, cores_per_socket, threads_per_core, cores_per_numa_domain;
	int nincore;                     /* "in-core model": analyser -> CPU name */
	struct machine_setting incore[MACHINE_MAX_SETTINGS];
	double flops_dp[4], flops_sp[4]; /* total, ADD, MUL, FMA per cycle (0 when absent) */
	int ncompiler;                   /* "compiler": compiler -> flags */
	struct machine_setting compiler[MACHINE_MAX_SETTINGS];
	double cacheline_bytes;
	int nlevels;                     /* cache levels + MEM */
	struct machine_level level[MACHINE_MAX_LEVELS];
	int nkernels;
	struct machine_bench_kernel kernel[MACHINE_MAX_KERNELS];
	int nbench;
	struct machine_bench_level bench[MACHINE_MAX_LEVELS];
	int probed; /* the file has archscope's section: written by archscope probe -o */
};

/* The cache line: the file's "cacheline size", else the first cache level's cl_size; 0 when it
 * gives neither (machine_check refuses such a file). Never assumed. */
static inline double machine_line_bytes(const struct machine *m)
{
	if (m->cacheline_bytes > 0)
		return m->cacheline_bytes;
	for (int i = 0; i < m->nlevels; i++)
		if (m->level[i].has_cache && m->level[i].cl_size > 0)
			return (double)m->level[i].cl_size;
	return 0;
}

#endif
