/* libFuzzer target for stat -M's metric-group files (measure/stat-group.c): any bytes are checked
 * as the checked reader checks a file's text, then parsed; a failure must say why, and a group that
 * parses holds only what the parser promises: every block has events, every metric's expression
 * checks and evaluates (over values with zeros and NaN among them). The input is also evaluated
 * as one expression, unchecked. Built and run by tests/fuzz/run.sh. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/atomicfile.h"
#include "measure/stat-group.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Two of perf's names for one event, as measure_stat_alias has them. */
static const char *alias(const char *name)
{
	return !strcmp(name, "faults") ? "page-faults" : !strcmp(name, "cpu-cycles") ? "cycles" : name;
}

static double value_of(void *ctx, const char *name)
{
	(void)ctx;
	size_t n = strlen(name);
	return n % 5 == 0 ? 0 : n % 7 == 0 ? NAN : (double)n * 1e3;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct stat_group *g;
	if (!g && !(g = calloc(1, sizeof(*g))))
		abort();
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	/* the evaluator on any text: no crash, a number or NaN */
	if (size <= 1024) {
		(void)measure_stat_expr_eval(text, NULL, 0, value_of, NULL);
		char why[256];
		const char *const names[] = { "cycles", "instructions", "a-b" };
		if (measure_stat_expr_check(text, names, 3, why, sizeof(why)) != 0 && !why[0])
			abort(); /* a refusal must say why */
	}
	struct as_error err = { 0 };
	int rc = file_text_check(text, size, "metric group", "fuzz.txt", 1, &err);
	if (!rc)
		rc = measure_stat_group_parse(g, text, size, "fuzz.txt", alias, &err);
	free(text);
	if (rc) {
		if (!err.msg[0] || rc != -EINVAL)
			abort();
		return 0;
	}
	if (g->nblocks < 1 || g->nblocks > STAT_GROUP_BLOCKS_MAX)
		abort();
	for (int b = 0; b < g->nblocks; b++) {
		const struct stat_group_block *bl = &g->block[b];
		if (bl->n < 1 || bl->n > STAT_GROUP_EVENTS_MAX || bl->nmetrics < 0 || bl->nmetrics > STAT_METRICS_MAX ||
		    !bl->label[0])
			abort();
		const char *names[STAT_GROUP_EVENTS_MAX];
		for (int i = 0; i < bl->n; i++) {
			if (!memchr(bl->ev[i], 0, sizeof(bl->ev[i])) || !bl->ev[i][0])
				abort();
			names[i] = bl->ev[i];
		}
		for (int m = 0; m < bl->nmetrics; m++) {
			if (measure_stat_expr_check(bl->metric[m].expr, names, bl->n, NULL, 0) != 0)
				abort(); /* what the parser took checks again */
			(void)measure_stat_expr_eval(bl->metric[m].expr, names, bl->n, value_of, NULL);
		}
	}
	return 0;
}
