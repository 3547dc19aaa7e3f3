#!/usr/bin/env bash
# probe instr's latencies beside hand-written assembly chains and the published figures, in one run.
# For the rows where the probe and the published figures differ most (division, 512-bit integer
# multiply, 512-bit FP add) it times a chain of one instruction written in assembly, at 256 and at
# 512 bits, against a dependent 64-bit add chain (one add per core cycle), so the figures are core
# cycles measured in the same window. If the probe's generated C and the hand-written chain agree,
# a gap to the published figure belongs to the machine, not to the probe.
# Needs x86-64 with AVX-512F/DQ (prints why not otherwise). Last line:
#   "asm vs probe: N of M rows within 0.3 cycles"
set -uo pipefail
case "${1:-}" in -h | --help) sed -n '2,/^set -uo/{/^set -uo/d; s/^# \{0,1\}//; p}' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/.."
[ -x build/archscope ] || bash scripts/setup.sh >/dev/null
bin=$(pwd)/build/archscope
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cc=${CC:-cc}

cat > "$tmp/chains.c" <<'C'
/* Chains of one instruction, 50 per loop iteration, timed against a chain of 64-bit adds. */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

enum { REPT = 50, ROUNDS = 15 };
static long iters = 400000;
volatile double seed = 1.0;

static double add_ns(void)
{
	uint64_t x = 0, one = 1;
	long n = iters;
	double t = now();
	__asm__ volatile("1:\n\t.rept 50\n\taddq %[o], %[x]\n\t.endr\n\tdecq %[n]\n\tjnz 1b" : [x] "+r"(x), [n] "+r"(n) : [o] "r"(one));
	return (now() - t) / ((double)iters * REPT);
}

/* One vector chain: x = INS(a, x), REPT times per iteration. */
#define VCHAIN(fn, T, ins, xinit, ainit)                                                                   \
	static double fn(void)                                                                             \
	{                                                                                                  \
		T x = xinit, a = ainit;                                                                    \
		long n = iters / 8;                                                                        \
		double t = now();                                                                          \
		__asm__ volatile("1:\n\t.rept 50\n\t" ins "\n\t.endr\n\tdecq %[n]\n\tjnz 1b" : [x] "+v"(x), [n] "+r"(n) : [a] "v"(a)); \
		volatile T keep = x;                                                                       \
		(void)keep;                                                                                \
		return (now() - t) / ((double)(iters / 8) * REPT);                                         \
	}

#define PS(v) _mm512_set1_ps((float)(seed * (v)))
#define PS8(v) _mm256_set1_ps((float)(seed * (v)))
#define PD(v) _mm512_set1_pd(seed * (v))
#define PD4(v) _mm256_set1_pd(seed * (v))
#define EQ(v) _mm512_set1_epi64((long long)(seed * (v)))
#define EQ4(v) _mm256_set1_epi64x((long long)(seed * (v)))
/* Division runs x = d / x (d = sqrt 3, x from 1.1): full mantissas, as in the probe's kernels. */
VCHAIN(divps_z, __m512, "vdivps %[x], %[a], %[x]", PS(1.1), PS(1.7320508075688772))
VCHAIN(divps_y, __m256, "vdivps %[x], %[a], %[x]", PS8(1.1), PS8(1.7320508075688772))
VCHAIN(divpd_z, __m512d, "vdivpd %[x], %[a], %[x]", PD(1.1), PD(1.7320508075688772))
VCHAIN(divpd_y, __m256d, "vdivpd %[x], %[a], %[x]", PD4(1.1), PD4(1.7320508075688772))
VCHAIN(addps_z, __m512, "vaddps %[a], %[x], %[x]", PS(1.0), PS(1e-9))
VCHAIN(addps_y, __m256, "vaddps %[a], %[x], %[x]", PS8(1.0), PS8(1e-9))
VCHAIN(addpd_z, __m512d, "vaddpd %[a], %[x], %[x]", PD(1.0), PD(1e-9))
VCHAIN(addpd_y, __m256d, "vaddpd %[a], %[x], %[x]", PD4(1.0), PD4(1e-9))
VCHAIN(mulps_z, __m512, "vmulps %[a], %[x], %[x]", PS(1.0), PS(1.0))
VCHAIN(mulps_y, __m256, "vmulps %[a], %[x], %[x]", PS8(1.0), PS8(1.0))
VCHAIN(fmaps_z, __m512, "vfmadd231ps %[a], %[a], %[x]", PS(1.0), PS(1e-9))
VCHAIN(fmaps_y, __m256, "vfmadd231ps %[a], %[a], %[x]", PS8(1.0), PS8(1e-9))
VCHAIN(mulld_z, __m512i, "vpmulld %[a], %[x], %[x]", EQ(5), EQ(3))
VCHAIN(mulld_y, __m256i, "vpmulld %[a], %[x], %[x]", EQ4(5), EQ4(3))
VCHAIN(mullq_z, __m512i, "vpmullq %[a], %[x], %[x]", EQ(5), EQ(3))
VCHAIN(mullq_y, __m256i, "vpmullq %[a], %[x], %[x]", EQ4(5), EQ4(3))

/* DIV r32 / r64 with EDX/RDX zeroed first: the chain runs through EAX/RAX (2 / 1 = 2). */
#define DIVCHAIN(fn, T, ins)                                                                               \
	static double fn(void)                                                                             \
	{                                                                                                  \
		T x = 2, d = (T)seed;                                                                      \
		long n = iters / 8;                                                                        \
		double t = now();                                                                          \
		__asm__ volatile("1:\n\t.rept 50\n\txorl %%edx, %%edx\n\t" ins " %[d]\n\t.endr\n\tdecq %[n]\n\tjnz 1b" \
				 : "+a"(x), [n] "+r"(n) : [d] "r"(d) : "rdx", "cc");                      \
		return (now() - t) / ((double)(iters / 8) * REPT);                                         \
	}
DIVCHAIN(div32, uint32_t, "divl")
DIVCHAIN(div64, uint64_t, "divq")

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(const double *v)
{
	double s[ROUNDS];
	for (int i = 0; i < ROUNDS; i++)
		s[i] = v[i];
	qsort(s, ROUNDS, sizeof(double), cmp);
	return s[ROUNDS / 2];
}

struct chain {
	const char *op, *type;
	int width; /* the probe row's width_bits */
	const char *ins;
	double (*y)(void), (*z)(void); /* 256-bit and 512-bit chain; y only for scalar */
};

static const struct chain chains[] = {
	{ "div", "int32", 32, "DIV r32", div32, NULL },
	{ "div", "int64", 64, "DIV r64", div64, NULL },
	{ "mul", "int32", 512, "VPMULLD", mulld_y, mulld_z },
	{ "mul", "int64", 512, "VPMULLQ", mullq_y, mullq_z },
	{ "add", "float", 512, "VADDPS", addps_y, addps_z },
	{ "add", "double", 512, "VADDPD", addpd_y, addpd_z },
	{ "mul", "float", 512, "VMULPS", mulps_y, mulps_z },
	{ "fma", "float", 512, "VFMADD231PS", fmaps_y, fmaps_z },
	{ "div", "float", 512, "VDIVPS", divps_y, divps_z },
	{ "div", "double", 512, "VDIVPD", divpd_y, divpd_z },
};

int main(void)
{
	if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512dq")) {
		printf("no AVX-512F/DQ on this CPU\n");
		return 3;
	}
	int n = (int)(sizeof(chains) / sizeof(chains[0]));
	double y[16][ROUNDS], z[16][ROUNDS], add[ROUNDS];
	/* Rounds interleave every chain, and each chain is timed next to its own add chain, so a clock
	 * change between rounds moves both; per chain the median round counts. */
	for (int r = 0; r < ROUNDS; r++)
		for (int i = 0; i < n; i++) {
			double a = add_ns();
			add[r] = a;
			y[i][r] = chains[i].y() / a;
			z[i][r] = chains[i].z ? chains[i].z() / a : -1.0;
		}
	double best[16][2];
	for (int i = 0; i < n; i++) {
		best[i][0] = median(y[i]);
		best[i][1] = median(z[i]);
	}
	double a = median(add);
	printf("# add chain: %.4f ns per add (%.3f GHz), median of %d rounds\n", a * 1e9, 1e-9 / a, ROUNDS);
	for (int i = 0; i < n; i++)
		printf("%s|%s|%d|%s|%.3f|%.3f\n", chains[i].op, chains[i].type, chains[i].width, chains[i].ins, best[i][0],
		       chains[i].z ? best[i][1] : -1.0);
	return 0;
}
C
if ! "$cc" -O2 -mavx512f -mavx512dq -o "$tmp/chains" "$tmp/chains.c" 2>"$tmp/cc.err"; then
	echo "instr-asm: cannot build the chains ($cc): $(head -1 "$tmp/cc.err")"
	exit 1
fi
echo "timing hand-written chains (a few seconds) ..."
"$tmp/chains" > "$tmp/asm.txt"; rc=$?
if [ $rc -eq 3 ]; then cat "$tmp/asm.txt"; echo "asm vs probe: none (no AVX-512 here)"; exit 0; fi
[ $rc -eq 0 ] || { echo "instr-asm: the chains failed (exit $rc)"; exit 1; }
echo "running build/archscope probe instr --json ..."
"$bin" probe instr --json > "$tmp/probe.json" 2>"$tmp/err" || { echo "instr-asm: probe failed: $(tail -1 "$tmp/err")"; exit 1; }
python3 - "$tmp/asm.txt" "$tmp/probe.json" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
print(lines[0])
instr = json.load(open(sys.argv[2]))["results"]["instr"]
ops = instr["ops"]
tag = {x["source"]: x["tag"] for x in instr.get("published_sources") or []}
row = {(o["op"], o["type"], o["width_bits"]): o for o in ops}
print("cycles: asm = the probe's instruction (zmm or scalar) as a hand-written chain, asm ymm = its 256-bit form,")
print("        each as chain time over add-chain time in the same round, median of 15 rounds;")
print("        probe = probe instr's latency relative to its int32 add chain (same window)")
print(f"{'instruction':<15} {'asm ymm':>8} {'asm':>8} {'probe':>7}  published (source: latency)")
n = ok = 0
for l in lines[1:]:
    op, ty, w, ins, y, z = l.split("|")
    y, z, w = float(y), float(z), int(w)
    o = row.get((op, ty, w))
    asm = z if z > 0 else y
    pr = o["relative_to_int32_add"] if o else None
    pub = "; ".join(f"{tag.get(s['source'], s['source'])} {s['latency_cy']:g}" for s in (o["published"] or {}).get("sources", [])) if o and o["published"] else "-"
    name = ins + (" zmm" if z > 0 else "")
    y_txt = f"{y:8.2f}" if z > 0 else f"{'-':>8}"
    pr_txt = f"{pr:7.2f}" if pr is not None else f"{'-':>7}"
    print(f"{name:<15} {y_txt} {asm:8.2f} {pr_txt}  {pub}")
    if pr is not None:
        n += 1; ok += abs(pr - asm) <= 0.3
print(f"asm vs probe: {ok} of {n} rows within 0.3 cycles")
PY
