/* Tier 2's counts (tier2.h): hardware counters opened in archscope on itself just before it forks
 * the program, inherited by the child and enabled at its exec, so that every thread and process
 * the program starts is counted and archscope is not; read once the program has exited. */
#include "scale/tier2.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Each count's event names, tried in order (libpfm4 names; the first that opens is used). The
 * stall and HITM events exist under these names on Intel cores only: elsewhere those counts are
 * missing and the parts that need them stay in work_inflation. */
static const char *const candidates[SCALE_COUNT_KINDS][3] = {
	[SCALE_COUNT_INSTRUCTIONS] = { "perf::PERF_COUNT_HW_INSTRUCTIONS", NULL, NULL },
	[SCALE_COUNT_CYCLES] = { "perf::PERF_COUNT_HW_CPU_CYCLES", NULL, NULL },
	[SCALE_COUNT_LLC_MISSES] = { "perf::PERF_COUNT_HW_CACHE_LL:READ:MISS", "perf::PERF_COUNT_HW_CACHE_MISSES", NULL },
	[SCALE_COUNT_MISS_STALLS] = { "CYCLE_ACTIVITY:STALLS_L3_MISS", NULL, NULL },
	[SCALE_COUNT_HITM] = { "MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM", "MEM_LOAD_L3_HIT_RETIRED:XSNP_FWD", NULL },
};

int scale_counts_open(struct scale_counter_run *c, struct as_error *err)
{
	counters_init(&c->set);
	struct counters_how how = { .inherit = 1, .enable_on_exec = 1, .grouped = 0, .kernel = 0 };
	int first_rc = 0;
	char first_msg[160] = "";
	for (int k = 0; k < SCALE_COUNT_KINDS; k++) {
		c->slot[k] = -1;
		for (int j = 0; j < 3 && candidates[k][j] && c->slot[k] < 0; j++) {
			struct as_error oe = { 0 };
			int rc = counters_add(&c->set, candidates[k][j], 0, &how, &oe);
			if (rc == 0)
				c->slot[k] = c->set.n - 1;
			else if (!first_rc) {
				first_rc = rc;
				snprintf(first_msg, sizeof(first_msg), "%s", counters_why_not(rc));
			}
		}
		/* instructions and cycles are the least tier 2 needs */
		if (c->slot[k] < 0 && (k == SCALE_COUNT_INSTRUCTIONS || k == SCALE_COUNT_CYCLES)) {
			counters_close(&c->set);
			return as_error_set(err, first_rc ? first_rc : -ENOENT, "hardware counters do not open: %s",
					    first_msg[0] ? first_msg : "instructions and cycles do not open");
		}
	}
	return 0;
}

int scale_counts_read(struct scale_counter_run *c, struct scale_counts *out)
{
	double v[SCALE_COUNT_KINDS];
	memset(out, 0, sizeof(*out));
	for (int k = 0; k < SCALE_COUNT_KINDS; k++) {
		v[k] = 0;
		struct as_error e = { 0 };
		if (c->slot[k] < 0 || counters_read_one(&c->set, c->slot[k], &e) != 0)
			continue;
		double x = c->set.value[c->slot[k]];
		v[k] = x == x ? x : 0; /* NaN: never ran */
	}
	out->instructions = v[SCALE_COUNT_INSTRUCTIONS];
	out->cycles = v[SCALE_COUNT_CYCLES];
	out->llc_misses = v[SCALE_COUNT_LLC_MISSES];
	out->miss_stall_cycles = v[SCALE_COUNT_MISS_STALLS];
	out->hitm = v[SCALE_COUNT_HITM];
	return out->instructions > 0 && out->cycles > 0 ? 0 : -ENODATA;
}

void scale_counts_close(struct scale_counter_run *c)
{
	counters_close(&c->set);
}
