/* Which events a stat, compare or regress run counts: perf's default set, the names given with -e
 * (comma lists), every event this machine's PMUs know (--all), or a metric group read from a data
 * file (share/groups/NAME.txt, as likwid-perfctr's groups). */
#ifndef ARCHSCOPE_MEASURE_STAT_SELECT_H
#define ARCHSCOPE_MEASURE_STAT_SELECT_H

#include "common/error.h"
#include "measure/stat-group.h"

struct stat_select {
	int n;
	char **names;        /* owned */
	size_t cap;          /* entries names has room for */
	char group[64];      /* -M: the group's name ("" without) */
	char group_title[128];
	char group_pmu[64];  /* the EVENTSET block taken (its label, e.g. "intel", "amd", "generic") */
	int nmetrics;
	struct stat_metric metric[STAT_METRICS_MAX];
};

void measure_stat_select_init(struct stat_select *s);
/* Adds one name or a comma-separated list, as a user typed it: an empty name, or an event given
 * twice (also by two of perf's names for it), is -EINVAL with a message naming it. */
int measure_stat_select_add(struct stat_select *s, const char *list, struct as_error *err);
/* perf stat's default events (software and hardware). */
int measure_stat_select_default(struct stat_select *s, struct as_error *err);
/* Every kernel software event and every event of the PMUs libpfm4 finds for this CPU (each with
 * its default unit masks; an event that needs one, once per unit mask). */
int measure_stat_select_all(struct stat_select *s, struct as_error *err);
/* Reads DIR/NAME.txt (NAME case-insensitive) with measure_stat_group_read() (stat-group.h: the whole
 * file is checked, a bad one is -EINVAL naming its line, one too large -EFBIG). The first block
 * whose every event libpfm4 encodes on this machine is taken (Intel's, AMD's, ...), else the last
 * (perf's generic events, by convention). -ENOENT names the groups that exist. */
int measure_stat_select_group(struct stat_select *s, const char *dir, const char *name, struct as_error *err);
/* The group names in DIR (sorted, one string "BRANCH, FLOPS, ..."). */
void measure_stat_select_group_list(const char *dir, char *out, size_t len);
/* Evaluates a metric of s over event means (stat_expr_eval over s's events): value(name) gives
 * an event's mean (NaN: none). NaN when an event is missing, a division by zero or the expression
 * is malformed (a group's metrics were checked when it was read). */
double measure_stat_metric_eval(const struct stat_select *s, const struct stat_metric *m,
			double (*value)(void *ctx, const char *name), void *ctx);
void measure_stat_select_release(struct stat_select *s);

#endif
