/* Load-latency samples for `memhist`: the data source of each load decoded from the kernel's
 * perf_mem_data_src, histograms of latency (cycles) by data source counted by samples or by cost
 * (samples x latency), the thesis' threshold-cycling differences, readers of recorded samples, and
 * the live sampling through perf_event_open (Intel PEBS load latency, AMD IBS op). */
#ifndef ARCHSCOPE_MEASURE_MEMSAMPLE_H
#define ARCHSCOPE_MEASURE_MEMSAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

enum memsample_src {
	MEMSAMPLE_L1,
	MEMSAMPLE_LFB,          /* line fill buffer (Intel) / miss address buffer: a miss already under way */
	MEMSAMPLE_L2,
	MEMSAMPLE_L3,           /* the last-level cache of this node, a peer cache on this node included */
	MEMSAMPLE_LOCAL_DRAM,
	MEMSAMPLE_REMOTE_DRAM,
	MEMSAMPLE_REMOTE_CACHE, /* a cache of another node */
	MEMSAMPLE_OTHER,        /* not a load, not known, I/O, uncached, persistent memory */
	MEMSAMPLE_NSRC
};

/* "L1", "LFB", "L2", "L3", "local DRAM", "remote DRAM", "remote cache", "other"; and the JSON keys
 * "l1", "lfb", "l2", "l3", "local_dram", "remote_dram", "remote_cache", "other". */
const char *memsample_src_name(int src);
const char *memsample_src_key(int src);

/* The data source of a perf_mem_data_src value (linux/perf_event.h): the level number and the
 * remote bit where the kernel fills them (AMD IBS, newer Intel), else the level bits. A level
 * that missed (Intel "L3 miss") is OTHER: the sample does not say where the data came from. */
int memsample_src_decode(uint64_t data_src);

struct memsample {
	double latency_cy;
	uint64_t data_src;
	int src;
};

struct memsample_set {
	size_t n, cap;
	struct memsample *s;
	uint64_t lost;       /* live: samples the kernel dropped (ring buffer full) */
};

int memsample_add(struct memsample_set *set, double latency_cy, uint64_t data_src);
void memsample_set_release(struct memsample_set *set);

/* The limits of a recorded file (memsample_read_file). */
#define MEMSAMPLE_MAX_FILE_BYTES ((size_t)2 << 30)
#define MEMSAMPLE_MAX_SAMPLES 40000000

/* Reads recorded samples (through the checked reader of common/atomicfile.h: a regular file or
 * "-", text, at most MEMSAMPLE_MAX_FILE_BYTES and MEMSAMPLE_MAX_SAMPLES): JSON lines ({"latency_cy": N, "data_src": N or "0xHEX"}, one object per
 * line) or the text of `perf script -F data_src,weight` after `perf mem record` (other fields may
 * stand before data_src and after the weight). The format is told by the first character that is not blank ('{': JSON lines).
 * -EINVAL with the file and line for a line that is neither, and for a file without samples. */
int memsample_read_file(const char *path, struct memsample_set *set, struct as_error *err);

#define MEMSAMPLE_BINS_MAX 64

/* n edges make n latency intervals in cycles: [edge[i], edge[i+1]), the last [edge[n-1], inf);
 * latencies below edge[0] are left out. */
struct memsample_bins {
	int n;
	double edge[MEMSAMPLE_BINS_MAX + 1];
};

/* "log2" (0, 4, 8, ..., 2048, then open), "lin:STEP:MAX", or edges "0,30,60,200,500". -EINVAL. */
int memsample_bins_parse(const char *spec, struct memsample_bins *b, struct as_error *err);

struct memsample_hist {
	struct memsample_bins bins;
	int cost;                                          /* 0: samples; 1: samples x latency (cy) */
	double v[MEMSAMPLE_BINS_MAX][MEMSAMPLE_NSRC];
	double total[MEMSAMPLE_NSRC];
	double samples;                                    /* in the histogram (below the first edge: not) */
};

void memsample_hist_build(const struct memsample_set *set, const struct memsample_bins *b, int cost,
			  struct memsample_hist *h);

/* Threshold cycling (thesis §4.3.1): counts[i] loads above threshold[i] (increasing), each from its
 * own run or time slice; the loads in [threshold[i], threshold[i+1]) are counts[i] - counts[i+1]
 * (the last interval open). A difference below 0 (the runs differed more than the interval holds)
 * is kept, and *negative gets how many there are. */
void memsample_threshold_diff(const double *counts, int n, double *interval, int *negative);

/* Parses perf ring-buffer records (PERF_RECORD_SAMPLE with sample_type IP, TID, ADDR, WEIGHT,
 * DATA_SRC, in that order; other records skipped) into set, loads only (data_src's op), user-mode
 * samples only with user_only; the latency is the weight's low 32 bits (Intel's weight, AMD IBS's
 * DcMissLat in var1_dw). PERF_RECORD_LOST adds to set->lost. -EINVAL for a truncated record. */
int memsample_ring_parse(const uint8_t *data, size_t len, int user_only, struct memsample_set *set);

/* Live sampling. What this machine offers: 'I' (Intel PEBS load latency: the cpu PMU has a
 * mem-loads event), 'A' (AMD IBS op PMU), or 0 with why[] naming what is missing and what would
 * provide it (one line). */
int memsample_live_probe(char *why, size_t len);

struct memsample_live_opts {
	int ldlat_cy;        /* Intel: loads at or above this latency are sampled (default 3) */
	uint64_t period;     /* Intel: one sample per `period` qualifying loads; AMD: per `period` cycles;
			      * 0: 4000 samples per second per CPU, as perf record */
	double timeout_s;    /* 0: none */
	/* called about once a second while the program runs (may be NULL) */
	void (*tick)(void *ctx, double t_s, size_t samples);
	void *ctx;
};

/* Runs argv and samples its loads into set (latency in cycles, data source). -EOPNOTSUPP when the
 * machine cannot (err says why), another -errno on failure. *status gets the exit status (or
 * 128 + the signal). */
int memsample_live_record(char *const argv[], const struct memsample_live_opts *o, struct memsample_set *set,
			  int *status, struct as_error *err);

/* Intel threshold counting for one ldlat threshold: runs argv and counts its loads of at least
 * ldlat_cy cycles (the load-latency event in counting mode). For CPUs that sample latencies only
 * above a threshold; memsample_threshold_diff turns a series of them into intervals. */
int memsample_live_count_above(char *const argv[], int ldlat_cy, double *count, int *status, struct as_error *err);

#endif
