#!/usr/bin/env bash
# archscope bench against likwid-bench, side by side in one run: for load, copy, stream, triad x
# 16 kB, 1 MB, 20 MB, 1 GB x 1 and 2 threads, PAIRS interleaved pairs (likwid, archscope, likwid,
# archscope, ...), each tool's bandwidth as it reports it (application bytes, no write-allocate:
# the same count for both), and the median ratio archscope/likwid per cell. Each tool runs its
# fastest variant for the cell: in every pair each tool runs all its variants once (scalar/SSE/
# AVX/AVX-512, FMA forms for likwid; interleaved likwid, archscope, likwid, ...) and its fastest
# counts, so both get the same best-of-its-variants treatment and no separate pick can leave one
# tool on a variant a noisy moment made look fast (at L2 sizes SSE copies beat AVX-512 ones on
# some cores, so the widest is not always the fastest).
# Per cell: the median ratio and a distribution-free confidence interval for it (order statistics
# of the pair ratios; with 5 pairs, lowest to highest, 94 %): "faster"/"slower" when the interval
# lies above/below 1, "tie" when it holds 1.
# Last line: "min cell ratio: R (kernel size threads)".
#   PAIRS=5 (default) KERNELS="load copy stream triad" SIZES="16kB 1MB 20MB 1GB" THREADS="1 2"
set -uo pipefail
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

printf '%-7s %-6s %-3s %-18s %-8s %12s %14s %7s %-13s %-6s  %s\n' kernel size thr likwid-variant ours "likwid MB/s" "archscope MB/s" ratio "interval" verdict "pair ratios"
: > "$tmp/cells"
for k in $KERNELS; do
	for s in $SIZES; do
		for t in $THREADS; do
			[ "$t" -le "$allowed" ] || { echo "$k $s $t: skipped (only $allowed CPUs)"; continue; }
			lc=($(variants likwid "$k")); ac=($(variants archscope "$k"))
			[ ${#lc[@]} -gt 0 ] && [ ${#ac[@]} -gt 0 ] || { echo "$k $s $t: no variant to run"; continue; }
			ratios=() ; L=() ; A=() ; LV=() ; AV=()
			for ((p = 0; p < PAIRS; p++)); do
				bl=0 ; ba=0 ; vl= ; va=
				for ((i = 0; i < ${#lc[@]} || i < ${#ac[@]}; i++)); do
					if [ $i -lt ${#lc[@]} ]; then
						m=$(likwid_mbs "${lc[$i]}" "$s" "$t")
						[ -n "$m" ] && python3 -c "import sys; sys.exit(not $m > $bl)" && { bl=$m; vl=${lc[$i]}; }
					fi
					if [ $i -lt ${#ac[@]} ]; then
						m=$(archscope_mbs "$k" "$s" "$t" "${ac[$i]}")
						[ -n "$m" ] && python3 -c "import sys; sys.exit(not $m > $ba)" && { ba=$m; va=${ac[$i]}; }
					fi
				done
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
verdict = "faster" if lo > 1 else "slower" if hi < 1 else "tie"
iv = f"{lo:.2f}-{hi:.2f}/{100 * cov(j):.0f}%"
print(f"{k:<7} {s:<6} {t:<3} {lv:<18} {av:<8} {st.median(L):12.0f} {st.median(A):14.0f} {st.median(R):7.3f} {iv:<13} {verdict:<6}  " + " ".join(f"{r:.2f}" for r in R))
PY
			tail -1 "$tmp/cells"
		done
	done
done
python3 - "$tmp/cells" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
if not rows:
    print("min cell ratio: none (no cell ran)"); sys.exit(1)
m = min(rows, key=lambda r: float(r[7]))
print(f"cells: {len(rows)}, below 1.00: {sum(float(r[7]) < 1.0 for r in rows)}, "
      f"faster: {sum(r[9] == 'faster' for r in rows)}, tie: {sum(r[9] == 'tie' for r in rows)}, slower: {sum(r[9] == 'slower' for r in rows)}")
print(f"min cell ratio: {float(m[7]):.3f} ({m[0]} {m[1]} {m[2]})")
PY
