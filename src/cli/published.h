/* Published instruction figures to print beside the measured ones (never used to decide an
 * answer). The CPU is recognised from /proc/cpuinfo only to pick the table. */
#ifndef ARCHSCOPE_CLI_PUBLISHED_H
#define ARCHSCOPE_CLI_PUBLISHED_H

#define PUBLISHED_SOURCES 3

struct published_op {
	const char *op, *type;
	int vector_bits;          /* 0: scalar; else the vector width the figure is for */
	const char *instruction;  /* what the compiler emits for it */
	/* Latency and cycles per operation (reciprocal throughput), one pair per source of the CPU's
	 * table; 0 where a source has no figure. */
	double latency_cy[PUBLISHED_SOURCES], cy_per_op[PUBLISHED_SOURCES];
};

struct published_cpu {
	const char *name;
	const char *source[PUBLISHED_SOURCES];   /* NULL: unused */
	const char *tag[PUBLISHED_SOURCES];      /* short column names */
	const struct published_op *ops;
	int nops;
};

/* 1 when this CPU has a table (filled into *pc), 0 otherwise. */
int published_cpu_detect(struct published_cpu *pc);
const struct published_op *published_lookup(const struct published_cpu *pc, const char *op, const char *type,
					    int vector, int width_bits);

#endif
