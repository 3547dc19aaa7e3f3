/* Machine files in Kerncraft's format plus archscope's own section: checking the keys and types a
 * model needs (errors name the line and the path, "memory hierarchy[1].cache per group.ways"),
 * quantities with units ("2.4 GHz", "32.00 kB", "64 B/cy"), and the typed values read back. */
#ifndef ARCHSCOPE_REPORT_MACHINE_H
#define ARCHSCOPE_REPORT_MACHINE_H

#include "report/mtree.h"

/* A number with an optional SI (k M G T: powers of 1000) or binary (Ki Mi Gi Ti) prefix and
 * unit: "2.4 GHz" -> 2.4e9 "Hz"; "32 KiB" -> 32768 "B"; "64 B/cy"; "8" -> 8 "". 0 or -1. */
int machine_quantity(const char *text, double *value, char *unit, size_t unit_len);

/* Checks a parsed machine file. Every problem is one line "machine file 'NAME': line L: PATH:
 * expected ..." appended to *report (malloc'd, NULL when there is none). Returns the count. */
int machine_check(const struct mtree *t, const char *name, char **report);

#define MACHINE_MAX_LEVELS 8

/* The values a model uses, read from a checked file. Sizes in bytes, rates in bytes per cycle
 * (0 when the file gives no number, e.g. Kerncraft's "architecture code analyzer"). */
struct machine_level {
	char name[16];
	int has_cache;
	long sets, ways, cl_size;
	double size_bytes;          /* sets x ways x cl_size, or "size per group" */
	long groups, cores_per_group, threads_per_group;
	double upstream_bytes_per_cy;
	char upstream_text[64];
};

struct machine {
	char model_name[128];
	double clock_hz;
	long sockets, cores_per_socket, threads_per_core;
	double flops_dp[4], flops_sp[4]; /* total, ADD, MUL, FMA per cycle (0 when absent) */
	double cacheline_bytes;
	int nlevels;                     /* cache levels + MEM */
	struct machine_level level[MACHINE_MAX_LEVELS];
};

/* Fills m from a tree that passed machine_check. */
void machine_read(const struct mtree *t, struct machine *m);

#endif
