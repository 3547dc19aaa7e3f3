/* Published instruction figures the instr probe sets beside the measured ones (never used to
 * decide an answer). The CPU is recognised from /proc/cpuinfo only to pick the table. */
#ifndef ARCHSCOPE_PROBE_PUBLISHED_H
#define ARCHSCOPE_PROBE_PUBLISHED_H

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

/* 1 when the CPU of this vendor_id, family and model (as /proc/cpuinfo spells them) has a table
 * (filled into *pc), 0 otherwise (*pc zeroed). */
int probe_published_for(const char *vendor, int family, int model, struct published_cpu *pc);
/* probe_published_for the CPU /proc/cpuinfo reports. */
int probe_published_detect(struct published_cpu *pc);
/* The figures of op on type, scalar or at vector width_bits; NULL when the table has none. */
const struct published_op *probe_published_lookup(const struct published_cpu *pc, const char *op, const char *type,
						  int vector, int width_bits);

#endif
