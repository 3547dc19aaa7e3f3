/* Line-crossing vector loads and stores, in L1: see split.h. Each loop makes 8 independent
 * accesses per iteration to 8 different lines of a 2 KiB buffer (512 B per iteration, wrapping),
 * so only the load or store pipes bound it; a split access starts 64 - width/2 bytes into its
 * line, so it takes half of its bytes from each of two lines. */
#include "probe/split.h"

#include <math.h>
#include <string.h>

#include "probe/clock.h"
#include "probe/kernels.h"
#include "probe/memory.h"

#if defined(__x86_64__)

/* page-aligned: no access of the loops crosses a 4 KiB page (a store that does costs far more than one
 * that only spans two lines: bench/results/design-measurements.md, split-page) */
static char split_buf[2048 + 128] __attribute__((aligned(4096)));

#define ACC8(INSN_FMT)                                                                                    \
	INSN_FMT("0") INSN_FMT("64") INSN_FMT("128") INSN_FMT("192") INSN_FMT("256") INSN_FMT("320")   \
		INSN_FMT("384") INSN_FMT("448")

#define SPLIT_KERNEL(NAME, INSN_FMT, OFF, TAIL)                                                           \
	static uint64_t NAME(uint64_t n)                                                                  \
	{                                                                                                 \
		char *b = split_buf + (OFF);                                                              \
		for (uint64_t i = 0; i < n; i++) {                                                        \
			char *p = b + (i & 3) * 512;                                                      \
			__asm__ volatile(ACC8(INSN_FMT) : : "r"(p) : "xmm0", "memory");                   \
		}                                                                                         \
		__asm__ volatile(TAIL ::: "memory");                                                      \
		return n;                                                                                 \
	}

/* 8 loads and 8 stores per iteration, to 16 different lines of two buffers: what a loop that
 * does both gets of the two throughputs (their sum, where loads and stores share the pipes; the
 * larger, where each has its own) */
static char mixed_buf[2048 + 128] __attribute__((aligned(4096)));
#define MIXED_KERNEL(NAME, LD_FMT, ST_FMT, TAIL)                                                          \
	static uint64_t NAME(uint64_t n)                                                                  \
	{                                                                                                 \
		for (uint64_t i = 0; i < n; i++) {                                                        \
			char *p = split_buf + (i & 3) * 512, *q = mixed_buf + (i & 3) * 512;              \
			__asm__ volatile(ACC8(LD_FMT) ACC8(ST_FMT) : : "r"(p), "r"(q) : "xmm0", "xmm1", "memory"); \
		}                                                                                         \
		__asm__ volatile(TAIL ::: "memory");                                                      \
		return n;                                                                                 \
	}
#define MST128(o) "movups %%xmm1, " o "(%1)\n\t"
#define MST256(o) "vmovups %%ymm1, " o "(%1)\n\t"
#define MST512(o) "vmovups %%zmm1, " o "(%1)\n\t"

#define LD128(o) "movups " o "(%0), %%xmm0\n\t"
#define ST128(o) "movups %%xmm0, " o "(%0)\n\t"
#define LD256(o) "vmovups " o "(%0), %%ymm0\n\t"
#define ST256(o) "vmovups %%ymm0, " o "(%0)\n\t"
#define LD512(o) "vmovups " o "(%0), %%zmm0\n\t"
#define ST512(o) "vmovups %%zmm0, " o "(%0)\n\t"

/* the five loops of one width: load, split load, store, split store, loads and stores */
#define SPLIT_WIDTH(W, SPLIT_OFF, TAIL)                                                                   \
	MIXED_KERNEL(mx##W, LD##W, MST##W, TAIL)                                                          \
	SPLIT_KERNEL(ld##W, LD##W, 0, TAIL)                                                               \
	SPLIT_KERNEL(ld##W##s, LD##W, SPLIT_OFF, TAIL)                                                    \
	SPLIT_KERNEL(st##W, ST##W, 0, TAIL)                                                               \
	SPLIT_KERNEL(st##W##s, ST##W, SPLIT_OFF, TAIL)

SPLIT_WIDTH(128, 56, "")
SPLIT_WIDTH(256, 48, "vzeroupper")
SPLIT_WIDTH(512, 32, "vzeroupper")

static const struct {
	int bits;
	const char *feature;
	probe_kernel_fn fn[5]; /* load, split load, store, split store, 8 loads + 8 stores */
} widths[SPLIT_MAX_WIDTHS] = {
	{ 128, "sse2", { ld128, ld128s, st128, st128s, mx128 } },
	{ 256, "avx", { ld256, ld256s, st256, st256s, mx256 } },
	{ 512, "avx512f", { ld512, ld512s, st512, st512s, mx512 } },
};

static int cpu_runs(const char *feature)
{
	__builtin_cpu_init();
	if (!strcmp(feature, "sse2"))
		return __builtin_cpu_supports("sse2");
	if (!strcmp(feature, "avx"))
		return __builtin_cpu_supports("avx");
	return __builtin_cpu_supports("avx512f");
}

void probe_split_find(const struct probe_opts *o, struct probe_split_result *r)
{
	memset(r, 0, sizeof(*r));
	double target = o->quick ? 100e3 : 300e3;
	int reps = o->quick ? 5 : 11;
	for (int w = 0; w < SPLIT_MAX_WIDTHS && !probe_opts_stopped(o); w++) {
		if (!cpu_runs(widths[w].feature))
			continue;
		double before = clock_window_ghz();
		double ns[5];
		for (int k = 0; k < 5; k++) {
			uint64_t n = probe_kernel_calibrate(widths[w].fn[k], target);
			ns[k] = probe_kernel_best_ns(widths[w].fn[k], n, reps) / ((double)n * 8);
		}
		double ghz = clock_window_between(before, clock_window_ghz());
		if (!(ghz > 0))
			continue;
		struct probe_split_width *x = &r->w[r->nwidths++];
		x->width_bits = widths[w].bits;
		x->clock_ghz = ghz;
		x->load_cy = ns[0] * ghz;
		x->load_split_cy = ns[1] * ghz;
		x->store_cy = ns[2] * ghz;
		x->store_split_cy = ns[3] * ghz;
		x->mixed_cy = ns[4] * ghz; /* per load + store pair: ns[4] is per 8 pairs / 8 */
	}
}

#else

void probe_split_find(const struct probe_opts *o, struct probe_split_result *r)
{
	(void)o;
	memset(r, 0, sizeof(*r));
}

#endif
