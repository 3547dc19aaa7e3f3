#!/usr/bin/env bash
# How the c2c sweep grows with the number of CPUs: one measured round here (probe c2c on two CPUs,
# its time per block), then the time of the sweep for N = 2..128 CPUs as all pairs one at a time
# (before) and as round-robin rounds of disjoint pairs at once (now: N - 1 rounds, large blocks in
# batches of at most 1 GiB of blocks). A model from one measured round, not a run on N CPUs: each
# pair of a round is assumed to run as fast as the lone pair here. Writes a table to stdout and,
# with gnuplot, docs/figures/c2c-scaling.svg.
#
#   bash bench/c2c-scaling.sh [build/archscope]
set -euo pipefail
cd "$(dirname "$0")/.."
as=${1:-build/archscope}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s.%N)
"$as" probe c2c --json >"$tmp/c2c.json" 2>/dev/null
end=$(date +%s.%N)
python3 - "$tmp/c2c.json" "$start" "$end" "$tmp/table.dat" <<'PY'
import json, math, sys
r = json.load(open(sys.argv[1]))["results"]["c2c"]
wall = float(sys.argv[3]) - float(sys.argv[2])
blocks = [(b["block_bytes"], b["bandwidth_gbs"][0][1]) for b in r["blocks"]]
# one measurement = calibration + repetitions; its share of a round in proportion to its modeled
# run time max(5 ms, 4 rounds x 2 sides x block / bandwidth), scaled so one round = the wall time here
runs = [max(5e-3, 8 * b / (g * 1e9)) for b, g in blocks] + [5e-3]
scale = wall / sum(runs)
t = [x * scale for x in runs]
cap = 1 << 30
print(f"# measured: one round (one pair, {len(blocks)} block sizes + latency) in {wall:.2f} s wall on this machine")
print(f"# {'cpus':>5} {'pairs':>6} {'rounds':>6} {'all pairs one by one s':>24} {'round robin s':>14} {'speed-up':>9}")
with open(sys.argv[4], "w") as f:
    for n in (2, 4, 8, 16, 32, 64, 96, 128):
        pairs = n * (n - 1) // 2
        rounds = n - 1 if n % 2 == 0 else n
        before = pairs * sum(t)
        per_round = 0.0
        for (b, _), tk in zip(blocks, t):
            batch = max(1, cap // b)
            per_round += tk * math.ceil((n // 2) / batch)
        per_round += t[-1]
        now = rounds * per_round
        print(f"  {n:>5} {pairs:>6} {rounds:>6} {before:>24.1f} {now:>14.1f} {before / now:>9.1f}")
        f.write(f"{n} {before:.3f} {now:.3f}\n")
PY
if command -v gnuplot >/dev/null; then
	gnuplot <<GP
set terminal svg size 640,400
set output 'docs/figures/c2c-scaling.svg'
set title 'probe c2c: sweep time against CPUs (model from one measured round)'
set xlabel 'CPUs'
set ylabel 'seconds'
set logscale y
set key left top
plot '$tmp/table.dat' using 1:2 with linespoints title 'all pairs, one at a time', \
     '$tmp/table.dat' using 1:3 with linespoints title 'round robin, disjoint pairs at once'
GP
	echo "# figure: docs/figures/c2c-scaling.svg"
fi
