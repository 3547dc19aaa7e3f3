/* The machine both model fuzz targets run a kernel through (fuzz-kernel.c, fuzz-kcache.c): three
 * small caches of every replacement policy and memory, so that every model runs. */
#ifndef ARCHSCOPE_FUZZ_MACHINE_H
#define ARCHSCOPE_FUZZ_MACHINE_H

#include <stdio.h>

#include "machine/machine.h"

static struct machine *fuzz_machine(void)
{
	static struct machine m;
	if (m.nlevels)
		return &m;
	m.clock_hz = 2e9;
	m.cacheline_bytes = 64;
	m.flops_dp[0] = 8;
	const long sets[3] = { 8, 32, 128 }, ways[3] = { 2, 4, 8 };
	for (int i = 0; i < 4; i++) {
		struct machine_level *L = &m.level[m.nlevels++];
		snprintf(L->name, sizeof(L->name), i < 3 ? "L%d" : "MEM", i + 1);
		L->write_allocate = L->write_back = 1;
		L->cores_per_group = 1;
		L->upstream_bytes_per_cy = 32;
		if (i < 3) {
			L->has_cache = 1;
			L->sets = sets[i];
			L->ways = ways[i];
			L->cl_size = 64;
			L->size_bytes = (double)(sets[i] * ways[i] * 64);
			L->replacement = (enum machine_replacement)i;
		}
	}
	return &m;
}

#endif
