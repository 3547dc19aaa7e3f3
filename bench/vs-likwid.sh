#!/usr/bin/env bash
# archscope bench against likwid-bench, side by side in one run: for load, copy, stream, triad x
# 16 kB, 1 MB, 20 MB, 1 GB x 1 and 2 threads, PAIRS interleaved pairs (likwid, archscope, likwid,
# archscope, ...), each tool's bandwidth as it reports it (application bytes, no write-allocate:
# the same count for both), and the median ratio archscope/likwid per cell. Each tool runs its
# fastest variant for the cell: in every pair each tool runs all its variants once (scalar/SSE/
# AVX/AVX-512, FMA forms for likwid; interleaved likwid, archscope, likwid, ...) and its fastest
# counts, so both get the same best-of-its-variants treatment and no separate pick can leave one
# tool on a variant a noisy moment made look fast (at L2 sizes SSE copies beat AVX-512 ones on
# some cores, so the widest is not always the fastest). Both run the same number of variants at
# each vector width (the tool with fewer repeats its own): a fastest-of-7 beats a fastest-of-5 by
# noise alone where all variants are equally fast.
# Per cell: the median ratio and a distribution-free confidence interval for it (order statistics
# of the pair ratios; with 5 pairs, lowest to highest, 94 %): "faster"/"slower" when the interval
# lies above/below 1, "tie" when it holds 1.
# A cell whose median is below 1.00 gets a control (CONTROL=1, the default): PAIRS more pairs of
# likwid against itself, run the same way (same variants, same order). An exact one-sided
# Mann-Whitney test asks whether the cell's pair ratios are lower than the control's; p > 0.05:
# "explained" (archscope is not measurably further below likwid than likwid is below itself).
# Last line: "min cell ratio: R (kernel size threads)".
#   PAIRS=5 (default) KERNELS="load copy stream triad" SIZES="16kB 1MB 20MB 1GB" THREADS="1 2" CONTROL=1
#   CELLS="copy:1MB:2 triad:20MB:1 ..." runs just those cells (kernel:size:threads) instead.
set -uo pipefail
case "${1:-}" in -h | --help) sed -n '2,/^set -uo/{/^set -uo/d; s/^# \{0,1\}//; p}' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/.."
[ -x build/archscope ] || bash scripts/setup.sh >/dev/null
if ! command -v likwid-bench >/dev/null; then
	echo "installing likwid (Debian package) ..."
	{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq likwid; } >/dev/null 2>&1 ||
		{ echo "vs-likwid: cannot install likwid (apt-get install likwid failed)"; exit 1; }
fi
bin=$(pwd)/build/archscope
PAIRS=${PAIRS:-5}
KERNELS=${KERNELS:-load copy stream triad}
SIZES=${SIZES:-16kB 1MB 20MB 1GB}
THREADS=${THREADS:-1 2}
CONTROL=${CONTROL:-1}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
allowed=$(python3 -c 'import os; print(len(os.sched_getaffinity(0)))')

likwid_mbs() { # kernel-variant size threads -> MB/s
	likwid-bench -t "$1" -w "S0:$2:$3" 2>/dev/null | awk '/^MByte\/s:/ {print $2}'
}
archscope_mbs() { # kernel size threads [variant] -> MB/s (median of its repetitions)
	"$bin" bench "$1" -s "$2" -t "$3" ${4:+--variant "$4"} --json 2>/dev/null |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["results"]["runs"][0]["gbs"]["median"] * 1000)'
}
variants() { # KIND KERNEL: the tool's variants of the kernel (no non-temporal stores), narrow to wide
	if [ "$1" = likwid ]; then
		likwid-bench -a 2>/dev/null | awk -v k="$2" '$1 ~ "^"k"(_sse|_avx|_avx512)(_fma)?$" || $1 == k {print $1}'
	else
		"$bin" bench --list --json | python3 -c 'import json,sys
for k in json.load(sys.stdin)["results"]["kernels"]:
    if k["kernel"] == sys.argv[1] and k["supported"] and not k["nontemporal"]: print(k["variant"])' "$2"
	fi
}

width() { # a variant's vector width in bits, from its name (either tool's): 0 for scalar
	case "$1" in *avx512*) echo 512 ;; *avx*) echo 256 ;; *sse*) echo 128 ;; *) echo 0 ;; esac
}
# equalize: rewrites lc and ac (likwid's and archscope's variants) to the same count per width (see above).
equalize() {
	local w i n x
	local -a L A nl=() na=()
	for w in 0 128 256 512; do
		L=() ; A=()
		for x in "${lc[@]}"; do [ "$(width "$x")" = $w ] && L+=("$x"); done
		for x in "${ac[@]}"; do [ "$(width "$x")" = $w ] && A+=("$x"); done
		n=$((${#L[@]} > ${#A[@]} ? ${#L[@]} : ${#A[@]}))
		for ((i = 0; i < n; i++)); do
			[ ${#L[@]} -gt 0 ] && nl+=("${L[i % ${#L[@]}]}")
			[ ${#A[@]} -gt 0 ] && na+=("${A[i % ${#A[@]}]}")
		done
	done
	lc=("${nl[@]}") ; ac=("${na[@]}")
}

# One pair: likwid's variants and the second tool's (archscope, or likwid again for the control),
# interleaved variant by variant; sets bl/vl (likwid's fastest MB/s and variant) and ba/va.
pair() { # kernel size threads archscope|likwid
	local i m
	local -a b
	bl=0 ; ba=0 ; vl= ; va=
	if [ "$4" = likwid ]; then b=("${lc[@]}"); else b=("${ac[@]}"); fi
	for ((i = 0; i < ${#lc[@]} || i < ${#b[@]}; i++)); do
		if [ $i -lt ${#lc[@]} ]; then
			m=$(likwid_mbs "${lc[$i]}" "$2" "$3")
			[ -n "$m" ] && python3 -c "import sys; sys.exit(not $m > $bl)" && { bl=$m; vl=${lc[$i]}; }
		fi
		if [ $i -lt ${#b[@]} ]; then
			if [ "$4" = likwid ]; then m=$(likwid_mbs "${b[$i]}" "$2" "$3"); else m=$(archscope_mbs "$1" "$2" "$3" "${b[$i]}"); fi
			[ -n "$m" ] && python3 -c "import sys; sys.exit(not $m > $ba)" && { ba=$m; va=${b[$i]}; }
		fi
	done
}

printf '%-7s %-6s %-3s %-18s %-8s %12s %14s %7s %-13s %-6s  %s\n' kernel size thr likwid-variant ours "likwid MB/s" "archscope MB/s" ratio "interval" verdict "pair ratios"
: > "$tmp/cells"
if [ -z "${CELLS:-}" ]; then
	for k in $KERNELS; do for s in $SIZES; do for t in $THREADS; do CELLS+="${CELLS:+ }$k:$s:$t"; done; done; done
fi
for cell in $CELLS; do
	IFS=: read -r k s t <<<"$cell"
	[[ "$t" =~ ^[0-9]+$ ]] || { echo "$cell: not kernel:size:threads, skipped"; continue; }
	[ "$t" -le "$allowed" ] || { echo "$k $s $t: skipped (only $allowed CPUs)"; continue; }
	lc=($(variants likwid "$k")); ac=($(variants archscope "$k"))
	[ ${#lc[@]} -gt 0 ] && [ ${#ac[@]} -gt 0 ] || { echo "$k $s $t: no variant to run"; continue; }
	equalize
	ratios=() ; L=() ; A=() ; LV=() ; AV=()
	for ((p = 0; p < PAIRS; p++)); do
		pair "$k" "$s" "$t" archscope
		[ -n "$vl" ] && [ -n "$va" ] || continue
		L+=("$bl"); A+=("$ba"); LV+=("$vl"); AV+=("$va"); ratios+=("$(python3 -c "print($ba / $bl)")")
	done
	[ ${#ratios[@]} -gt 0 ] || { echo "$k $s $t: no result"; continue; }
	python3 - "$k" "$s" "$t" "${LV[*]}" "${AV[*]}" "${L[*]}" "${A[*]}" "${ratios[*]}" >>"$tmp/cells" <<'PY'
import math, statistics as st, sys
k, s, t = sys.argv[1:4]
mode = lambda vs: max(set(vs), key=vs.count)     # the variant that was fastest in most pairs
lv, av = mode(sys.argv[4].split()), mode(sys.argv[5].split())
L = [float(x) for x in sys.argv[6].split()]; A = [float(x) for x in sys.argv[7].split()]
R = [float(x) for x in sys.argv[8].split()]
# The widest order-statistic interval [R(j), R(n+1-j)] that still covers the median with >= 90 %:
# coverage = 1 - 2 P(Binomial(n, 1/2) < j); j = 1 when n is too small to reach 90 %.
n, S = len(R), sorted(R)
cov = lambda j: 1 - 2 * sum(math.comb(n, i) for i in range(j)) / 2 ** n
j = max([j for j in range(1, (n + 1) // 2 + 1) if cov(j) >= 0.90] or [1])
lo, hi = S[j - 1], S[n - j]
verdict = "few" if cov(j) < 0.90 else "faster" if lo > 1 else "slower" if hi < 1 else "tie"  # few: < 5 pairs, no 90 % interval
iv = f"{lo:.2f}-{hi:.2f}/{100 * cov(j):.0f}%"
print(f"{k:<7} {s:<6} {t:<3} {lv:<18} {av:<8} {st.median(L):12.0f} {st.median(A):14.0f} {st.median(R):7.3f} {iv:<13} {verdict:<6}  " + " ".join(f"{r:.2f}" for r in R))
PY
	tail -1 "$tmp/cells"
	# A cell below 1.00 gets a control: PAIRS pairs of likwid against itself, run the
	# same way, measure what the host's noise and the run order alone do to the ratio.
	[ "$CONTROL" = 1 ] && tail -1 "$tmp/cells" | awk '{exit !($8 < 1)}' || continue
	C=()
	for ((p = 0; p < PAIRS; p++)); do
		pair "$k" "$s" "$t" likwid
		[ -n "$vl" ] && [ -n "$va" ] && C+=("$(python3 -c "print($ba / $bl)")")
	done
	[ ${#C[@]} -gt 0 ] || continue
	python3 - "$k $s $t" "${ratios[*]}" "${C[*]}" "$tmp/control" <<'PY'
import itertools, math, random, statistics as st, sys
R = [float(x) for x in sys.argv[2].split()]; C = [float(x) for x in sys.argv[3].split()]
# One-sided Mann-Whitney test: are the archscope/likwid pair ratios lower than likwid/likwid's?
# Exact (every split of the pooled ratios) up to 50000 splits (PAIRS <= 9); beyond, 50000 random
# splits with a fixed seed (C(30,15) = 155 million splits would take hours at PAIRS=15).
u = lambda xs, ys: sum((x < y) + 0.5 * (x == y) for x in xs for y in ys)
obs, allv, n = u(R, C), R + C, len(R)
N = len(allv)
if math.comb(N, n) <= 50000:
    splits = itertools.combinations(range(N), n)
else:
    rng = random.Random(1)
    splits = (rng.sample(range(N), n) for _ in range(50000))
def u_split(idx):
    mine = set(idx)
    return u([allv[i] for i in mine], [allv[i] for i in range(N) if i not in mine])
us = [u_split(idx) for idx in splits]
pv = sum(x >= obs for x in us) / len(us)
# few: so few pairs that no split could reach p <= 0.05 (PAIRS <= 2); the cell is not counted as explained
verdict = "few" if 1 / math.comb(N, n) > 0.05 else "explained" if pv > 0.05 else "not explained"
print(f"{sys.argv[1]} {verdict}", file=open(sys.argv[4], "a"))
print(f"  control likwid/likwid: median {st.median(C):.3f} (pairs {min(C):.2f}-{max(C):.2f}); "
      f"Mann-Whitney p = {pv:.2f} that archscope/likwid is lower -> {verdict}")
PY
done
touch "$tmp/control"
python3 - "$tmp/cells" "$tmp/control" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
ctl = {tuple(l.split()[:3]): l.split()[3:] for l in open(sys.argv[2]) if l.strip()}
if not rows:
    print("min cell ratio: none (no cell ran)"); sys.exit(1)
m = min(rows, key=lambda r: float(r[7]))
below = [r for r in rows if float(r[7]) < 1.0]
expl = sum(ctl.get(tuple(r[:3])) == ["explained"] for r in below)
print(f"cells: {len(rows)}, below 1.00: {len(below)} (within likwid's own spread: {expl}), "
      f"faster: {sum(r[9] == 'faster' for r in rows)}, tie: {sum(r[9] == 'tie' for r in rows)}, slower: {sum(r[9] == 'slower' for r in rows)}")
print(f"min cell ratio: {float(m[7]):.3f} ({m[0]} {m[1]} {m[2]})")
PY
