/* Unit tests of memhist (src/measure/memsample*.c): perf_mem_data_src decoding with Intel (PEBS,
 * level bits) and AMD (IBS, level numbers, remote bit, hops) encodings, the readers of recorded
 * samples, histograms equal to the hand count in tests/fixtures/measure/README.md, latency bins,
 * threshold-cycling differences and the ring-buffer records the live sampler parses. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>

#include "measure/memsample.h"
#include "harness.h"

#define FIX ARCHSCOPE_SOURCE_DIR "/tests/fixtures/measure/"

enum { L1 = MEMSAMPLE_L1, LFB = MEMSAMPLE_LFB, L2 = MEMSAMPLE_L2, L3 = MEMSAMPLE_L3, LD = MEMSAMPLE_LOCAL_DRAM,
       RD = MEMSAMPLE_REMOTE_DRAM, RC = MEMSAMPLE_REMOTE_CACHE, OT = MEMSAMPLE_OTHER };

/* perf_mem_data_src from its fields (linux/perf_event.h's layout) */
static uint64_t src(uint64_t op, uint64_t lvl, uint64_t lvlnum, uint64_t remote, uint64_t hops)
{
	return op | lvl << PERF_MEM_LVL_SHIFT | lvlnum << PERF_MEM_LVLNUM_SHIFT | remote << PERF_MEM_REMOTE_SHIFT |
	       hops << PERF_MEM_HOPS_SHIFT;
}

static void test_memhist__decode_intel(void)
{
	CHECK(memsample_src_decode(0x68100142) == L1); /* perf's own L1 hit: LOAD, L1 hit, snoop none, TLB L1/L2 hit */
	CHECK(memsample_src_decode(src(2, PERF_MEM_LVL_LFB | PERF_MEM_LVL_HIT, 0, 0, 0)) == LFB);
	CHECK(memsample_src_decode(src(2, PERF_MEM_LVL_L2 | PERF_MEM_LVL_HIT, 0, 0, 0)) == L2);
	CHECK(memsample_src_decode(src(2, PERF_MEM_LVL_L3 | PERF_MEM_LVL_HIT, 0, 0, 0)) == L3);
	CHECK(memsample_src_decode(src(2, PERF_MEM_LVL_LOC_RAM | PERF_MEM_LVL_HIT, 0, 0, 0)) == LD);
	CHECK(memsample_src_decode(src(2, PERF_MEM_LVL_REM_RAM2 | PERF_MEM_LVL_HIT, 0, 0, 0)) == RD);
	CHECK(memsample_src_decode(src(2, PERF_MEM_LVL_REM_CCE1 | PERF_MEM_LVL_HIT, 0, 0, 0)) == RC);
	/* "L3 miss" says where the data was not */
	CHECK(memsample_src_decode(src(2, PERF_MEM_LVL_L3 | PERF_MEM_LVL_MISS, 0, 0, 0)) == OT);
	CHECK(memsample_src_decode(src(4, PERF_MEM_LVL_L1 | PERF_MEM_LVL_HIT, 0, 0, 0)) == OT); /* a store */
	CHECK(memsample_src_decode(0) == OT);
	/* newer Intel kernels add the level number: it agrees */
	CHECK(memsample_src_decode(src(2, PERF_MEM_LVL_L2 | PERF_MEM_LVL_HIT, PERF_MEM_LVLNUM_L2, 0, 0)) == L2);
}

static void test_memhist__decode_amd(void)
{
	CHECK(memsample_src_decode(src(2, PERF_MEM_LVL_L1 | PERF_MEM_LVL_HIT, PERF_MEM_LVLNUM_L1, 0, 0)) == L1);
	CHECK(memsample_src_decode(src(2, PERF_MEM_LVL_LFB | PERF_MEM_LVL_HIT, PERF_MEM_LVLNUM_LFB, 0, 0)) == LFB);
	CHECK(memsample_src_decode(src(2, PERF_MEM_LVL_L3 | PERF_MEM_LVL_HIT, PERF_MEM_LVLNUM_L3, 0, 0)) == L3);
	/* another CCX of this node: the level number wins over the legacy "remote cache (1 hop)" bits */
	CHECK(memsample_src_decode(src(2, PERF_MEM_LVL_REM_CCE1 | PERF_MEM_LVL_HIT, PERF_MEM_LVLNUM_ANY_CACHE, 0,
				       PERF_MEM_HOPS_0)) == L3);
	CHECK(memsample_src_decode(src(2, PERF_MEM_LVL_REM_CCE2 | PERF_MEM_LVL_HIT, PERF_MEM_LVLNUM_ANY_CACHE, 1,
				       PERF_MEM_HOPS_2)) == RC);
	CHECK(memsample_src_decode(src(2, PERF_MEM_LVL_LOC_RAM | PERF_MEM_LVL_HIT, PERF_MEM_LVLNUM_RAM, 0, 0)) == LD);
	CHECK(memsample_src_decode(src(2, PERF_MEM_LVL_REM_RAM1 | PERF_MEM_LVL_HIT, PERF_MEM_LVLNUM_RAM, 1,
				       PERF_MEM_HOPS_1)) == RD);
	/* the hops alone mark another node */
	CHECK(memsample_src_decode(src(2, 0, PERF_MEM_LVLNUM_RAM, 0, PERF_MEM_HOPS_1)) == RD);
	CHECK(memsample_src_decode(src(2, PERF_MEM_LVL_IO | PERF_MEM_LVL_HIT, PERF_MEM_LVLNUM_IO, 0, 0)) == OT);
}

/* The hand count of README.md: bins 0,8,16,32,64,128,256,512 cycles, rows the bins, columns
 * L1 LFB L2 L3 localDRAM remoteDRAM remoteCache other. */
static const double intel_count[8][8] = {
	{ 5, 0, 0, 0, 0, 0, 0, 0 }, { 0, 2, 2, 0, 0, 0, 0, 1 }, { 0, 1, 1, 0, 0, 0, 0, 0 }, { 0, 0, 0, 2, 0, 0, 0, 0 },
	{ 0, 0, 0, 1, 0, 0, 0, 0 }, { 0, 0, 0, 0, 2, 0, 1, 1 }, { 0, 0, 0, 0, 1, 2, 1, 0 }, { 0, 0, 0, 0, 0, 1, 0, 0 },
};
static const double intel_cost[8][8] = {
	{ 27, 0, 0, 0, 0, 0, 0, 0 }, { 0, 21, 29, 0, 0, 0, 0, 10 }, { 0, 20, 18, 0, 0, 0, 0, 0 },
	{ 0, 0, 0, 85, 0, 0, 0, 0 }, { 0, 0, 0, 70, 0, 0, 0, 0 },    { 0, 0, 0, 0, 380, 0, 150, 230 },
	{ 0, 0, 0, 0, 260, 650, 400, 0 }, { 0, 0, 0, 0, 0, 520, 0, 0 },
};
static const double amd_count[8][8] = {
	{ 4, 0, 0, 0, 0, 0, 0, 1 }, { 0, 0, 2, 0, 0, 0, 0, 0 }, { 0, 2, 1, 0, 0, 0, 0, 0 }, { 0, 0, 0, 3, 0, 0, 0, 0 },
	{ 0, 0, 0, 2, 0, 0, 0, 0 }, { 0, 0, 0, 1, 1, 0, 0, 0 }, { 0, 0, 0, 0, 2, 1, 2, 0 }, { 0, 0, 0, 0, 0, 2, 0, 1 },
};
static const double amd_cost[8][8] = {
	{ 3, 0, 0, 0, 0, 0, 0, 0 }, { 0, 0, 25, 0, 0, 0, 0, 0 }, { 0, 55, 17, 0, 0, 0, 0, 0 },
	{ 0, 0, 0, 155, 0, 0, 0, 0 }, { 0, 0, 0, 200, 0, 0, 0, 0 }, { 0, 0, 0, 140, 250, 0, 0, 0 },
	{ 0, 0, 0, 0, 570, 420, 860, 0 }, { 0, 0, 0, 0, 0, 1300, 0, 900 },
};

static int hist_equals(const char *file, int cost, const double want[8][8], size_t n)
{
	struct memsample_set set = { 0 };
	struct memsample_bins b;
	struct as_error err = { 0 };
	struct memsample_hist h;
	int ok = memsample_read_file(file, &set, &err) == 0 && set.n == n &&
		 memsample_bins_parse("0,8,16,32,64,128,256,512", &b, &err) == 0 && b.n == 8;
	if (ok) {
		memsample_hist_build(&set, &b, cost, &h);
		ok = h.samples == (double)n;
		for (int i = 0; ok && i < 8; i++)
			for (int s = 0; s < 8; s++)
				if (h.v[i][s] != want[i][s]) {
					printf("# %s %s: bin %d %s = %g, hand count %g\n", file, cost ? "cost" : "count", i,
					       memsample_src_name(s), h.v[i][s], want[i][s]);
					ok = 0;
				}
	} else {
		printf("# %s: %s (%zu samples)\n", file, err.msg, set.n);
	}
	memsample_set_release(&set);
	return ok;
}

static void test_memhist__intel_hand_count(void)
{
	CHECK(hist_equals(FIX "memhist-intel.jsonl", 0, intel_count, 24));
	CHECK(hist_equals(FIX "memhist-intel.jsonl", 1, intel_cost, 24));
	CHECK(hist_equals(FIX "memhist-intel-perf-script.txt", 0, intel_count, 24));
	CHECK(hist_equals(FIX "memhist-intel-perf-script.txt", 1, intel_cost, 24));
}

static void test_memhist__amd_hand_count(void)
{
	CHECK(hist_equals(FIX "memhist-amd.jsonl", 0, amd_count, 25));
	CHECK(hist_equals(FIX "memhist-amd.jsonl", 1, amd_cost, 25));
	CHECK(hist_equals(FIX "memhist-amd-perf-script.txt", 0, amd_count, 25));
	CHECK(hist_equals(FIX "memhist-amd-perf-script.txt", 1, amd_cost, 25));
}

static void test_memhist__readers(void)
{
	/* perf 6.1's own line (a software event recorded with -W -d): data_src, decoding, weight, ip */
	const char *path = "/tmp/u-memhist-perf.txt";
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	fprintf(f, "    ramp 16929     5611f9511048      1e05080021 |OP N/A|LVL N/A or N/A|SNP N/A|TLB N/A|"
		   "LCK N/A|BLK  N/A               7 ffffffff8177539a\n");
	fprintf(f, "\n      68100142 |OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A             158\n");
	fclose(f);
	struct memsample_set set = { 0 };
	struct as_error err = { 0 };
	CHECK(memsample_read_file(path, &set, &err) == 0);
	CHECK(set.n == 2);
	CHECK(set.s[0].data_src == 0x1e05080021ull && set.s[0].latency_cy == 7);
	CHECK(set.s[1].data_src == 0x68100142 && set.s[1].latency_cy == 158 && set.s[1].src == L1);
	memsample_set_release(&set);
	f = fopen(path, "w");
	fprintf(f, "{\"latency_cy\": 12, \"data_src\": \"0x68100142\"}\n{\"latency_cy\": 3}\n");
	fclose(f);
	CHECK(memsample_read_file(path, &set, &err) == -EINVAL);
	CHECK(strstr(err.msg, "line 2") && strstr(err.msg, "data_src"));
	memsample_set_release(&set);
	f = fopen(path, "w");
	fprintf(f, "  68100142 |OP LOAD|LVL L1 hit\n");
	fclose(f);
	CHECK(memsample_read_file(path, &set, &err) == -EINVAL);
	CHECK(strstr(err.msg, "line 1: no weight") != NULL);
	memsample_set_release(&set);
	remove(path);
	CHECK(memsample_read_file("/nonexistent/x", &set, &err) == -ENOENT);
}

static void test_memhist__bins(void)
{
	struct memsample_bins b;
	struct as_error err = { 0 };
	CHECK(memsample_bins_parse("log2", &b, &err) == 0);
	CHECK(b.n == 11 && b.edge[0] == 0 && b.edge[1] == 4 && b.edge[10] == 2048);
	CHECK(memsample_bins_parse("lin:50:400", &b, &err) == 0);
	CHECK(b.n == 9 && b.edge[8] == 400);
	CHECK(memsample_bins_parse("0,30,60", &b, &err) == 0 && b.n == 3);
	CHECK(memsample_bins_parse("0,30,20", &b, &err) == -EINVAL);
	CHECK(memsample_bins_parse("lin:0:10", &b, &err) == -EINVAL);
	CHECK(memsample_bins_parse("abc", &b, &err) == -EINVAL);
	/* latencies below the first edge stay out */
	struct memsample_set set = { 0 };
	memsample_add(&set, 5, 0x68100142);
	memsample_add(&set, 50, 0x68100142);
	CHECK(memsample_bins_parse("10,100", &b, &err) == 0);
	struct memsample_hist h;
	memsample_hist_build(&set, &b, 0, &h);
	CHECK(h.samples == 1 && h.v[0][L1] == 1 && h.v[1][L1] == 0);
	memsample_set_release(&set);
}

static void test_memhist__thresholds(void)
{
	/* loads above 5, 25, 60, 100 cycles, one run each */
	double above[4] = { 100, 60, 25, 5 }, in[4];
	int neg;
	memsample_threshold_diff(above, 4, in, &neg);
	CHECK(in[0] == 40 && in[1] == 35 && in[2] == 20 && in[3] == 5 && neg == 0);
	/* two runs that differ more than their interval holds */
	double noisy[3] = { 50, 52, 10 };
	memsample_threshold_diff(noisy, 3, in, &neg);
	CHECK(in[0] == -2 && neg == 1);
}

/* A PERF_RECORD_SAMPLE as the kernel writes it for sample_type IP|TID|ADDR|WEIGHT|DATA_SRC. */
static size_t put_sample(uint8_t *p, uint16_t misc, uint64_t weight, uint64_t data_src)
{
	struct perf_event_header h = { PERF_RECORD_SAMPLE, misc, sizeof(h) + 5 * sizeof(uint64_t) };
	uint64_t v[5] = { 0x401000, (uint64_t)4242 << 32 | 4242, 0x7ffd0000, weight, data_src };
	memcpy(p, &h, sizeof(h));
	memcpy(p + sizeof(h), v, sizeof(v));
	return h.size;
}

static void test_memhist__ring_records(void)
{
	uint8_t buf[512];
	size_t n = 0;
	uint64_t amd_rd = src(2, PERF_MEM_LVL_REM_RAM1 | PERF_MEM_LVL_HIT, PERF_MEM_LVLNUM_RAM, 1, PERF_MEM_HOPS_1);
	n += put_sample(buf + n, PERF_RECORD_MISC_USER, 0x0000001100000123ull, amd_rd); /* var1_dw = 0x123 */
	n += put_sample(buf + n, PERF_RECORD_MISC_KERNEL, 50, 0x68100142);
	n += put_sample(buf + n, PERF_RECORD_MISC_USER, 9, src(4, PERF_MEM_LVL_L1 | PERF_MEM_LVL_HIT, 1, 0, 0));
	struct perf_event_header lost = { PERF_RECORD_LOST, 0, sizeof(lost) + 16 };
	memcpy(buf + n, &lost, sizeof(lost));
	uint64_t idlost[2] = { 7, 5 }; /* id 7 lost 5 samples */
	memcpy(buf + n + sizeof(lost), idlost, 16);
	n += lost.size;
	n += put_sample(buf + n, PERF_RECORD_MISC_USER, 30, 0x68100442);
	struct memsample_set set = { 0 };
	CHECK(memsample_ring_parse(buf, n, 1, &set) == 0);
	CHECK(set.n == 2); /* the kernel sample and the store are left out */
	CHECK(set.lost == 5);
	CHECK(set.s[0].latency_cy == 0x123 && set.s[0].src == RD);
	CHECK(set.s[1].latency_cy == 30 && set.s[1].src == L2);
	memsample_set_release(&set);
	CHECK(memsample_ring_parse(buf, n, 0, &set) == 0 && set.n == 3);
	memsample_set_release(&set);
	CHECK(memsample_ring_parse(buf, n - 8, 0, &set) == -EINVAL);
	memsample_set_release(&set);
}

static void test_memhist__live_probe(void)
{
	char why[512] = "";
	int v = memsample_live_probe(why, sizeof(why));
	CHECK(v == 'I' || v == 'A' || (v == 0 && strstr(why, "PEBS") && strstr(why, "IBS")));
	if (v == 0)
		SKIP("needs PMU (no PEBS load latency or IBS op here; the probe's message was checked)");
}

TESTS(T(test_memhist__decode_intel), T(test_memhist__decode_amd), T(test_memhist__intel_hand_count),
      T(test_memhist__amd_hand_count), T(test_memhist__readers), T(test_memhist__bins), T(test_memhist__thresholds),
      T(test_memhist__ring_records), T(test_memhist__live_probe))
