/* The difference of two machine files: both flattened to key paths ("clock",
 * "memory hierarchy[L2].cache per group.ways"), paired, and each pair marked when the texts
 * differ. cli/cmd-machine.c prints it. */
#ifndef ARCHSCOPE_MACHINE_DIFF_H
#define ARCHSCOPE_MACHINE_DIFF_H

#include <stddef.h>

#include "common/error.h"
#include "machine/mtree.h"

struct machine_diff_row {
	char *path;
	char *a, *b;   /* the value's text in each file, NULL where that file has none */
	int differs;
};

struct machine_diff {
	struct machine_diff_row *row; /* A's values in A's order, then the ones only B has */
	size_t n;
	size_t na;                    /* values in A */
	int ndiffer;
};

/* Pairs the values of two parsed files. Levels are matched by name, so L2 meets L2 when one file
 * has fewer levels; a list of scalars is one value "[a, b]". Without `all` only the core values:
 * the archscope section, the benchmarks, the counters' metrics and the port models are left out.
 * 0, or -ENOMEM. */
int machine_diff_init(struct machine_diff *d, const struct mnode *a, const struct mnode *b, int all,
		      struct as_error *err);
void machine_diff_release(struct machine_diff *d);

#endif
