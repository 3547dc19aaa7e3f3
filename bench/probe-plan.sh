#!/usr/bin/env bash
# The time of a full probe against the number of CPUs, before and now. First the step costs of this
# machine: a full probe and a --quick one with --json (each group's wall time in timing_s, c2c's
# seconds per block size in step_seconds), printed as the table src/probe/plan.c keeps
# (default_costs) and beside the plan's prediction for this machine. Then the model from 2 to 256
# CPUs on synthetic topologies like a two-socket server (2 packages, one NUMA node and one L3
# each, SMT 2; lstopo --input), and on the recorded big machines of tests/fixtures/topo/: the
# predicted time now (c2c by class, contexts by doubling and bisection), at most (c2c's finer
# classes taking their whole budget), and before (every pair in round robin, every team size
# 1 .. 2N + 1). With gnuplot, docs/figures/probe-scaling.svg. Run under
# `flock /tmp/archscope-quiet.lock` on a shared machine: the first part times the probe.
#
#   bash bench/probe-plan.sh [build/archscope]
set -euo pipefail
cd "$(dirname "$0")/.."
as=${1:-build/archscope}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for q in full quick; do
	flag=$([ $q = quick ] && echo --quick || true)
	s=$(date +%s.%N)
	"$as" probe $flag --json -q >"$tmp/$q.json"
	e=$(date +%s.%N)
	"$as" probe --plan $flag --json >"$tmp/plan-$q.json"
	echo "$s $e" >"$tmp/$q.wall"
done
# This machine: c2c by class against every pair (the trees), contexts' search against every team
# size (the answers and the team sizes), three times each.
for i in 1 2 3; do
	"$as" probe c2c --json -q >"$tmp/c2c-cls-$i.json"
	"$as" probe c2c --all-pairs --json -q >"$tmp/c2c-all-$i.json"
	"$as" probe contexts --json -q >"$tmp/ctx-search-$i.json"
	"$as" probe contexts --all-teams --json -q >"$tmp/ctx-all-$i.json"
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
def tree(c):
    return sorted(tuple(sorted(n["cpus"])) for n in c["tree"]["nodes"]) if c["tree"] else None
for i in (1, 2, 3):
    a = json.load(open(f"{tmp}/c2c-cls-{i}.json"))["results"]["c2c"]
    b = json.load(open(f"{tmp}/c2c-all-{i}.json"))["results"]["c2c"]
    print(f"# c2c run {i}: by class ({a['mode']}) {a['pairs_measured']} pairs in {a['steps']} steps, tree {tree(a)}; "
          f"--all-pairs {b['pairs_measured']} pairs in {b['steps']} steps, tree {tree(b)}: "
          f"{'the same tree' if tree(a) == tree(b) else 'trees differ'}")
    x = json.load(open(f"{tmp}/ctx-search-{i}.json"))["results"]["contexts"]
    y = json.load(open(f"{tmp}/ctx-all-{i}.json"))["results"]["contexts"]
    print(f"# contexts run {i}: " + "; ".join(
        f"{k} search {x[k]['value']} in {x[k]['teams']} team sizes, every size {y[k]['value']} in {y[k]['teams']}"
        for k in ("fp", "int", "mem")))
PY
python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
groups = ["clock", "line", "caches", "assoc", "tlb", "instr", "contexts", "registers", "timeslice", "c2c"]
print("# step costs (seconds), as src/probe/plan.c's default_costs takes them:")
for q in ("full", "quick"):
    r = json.load(open(f"{tmp}/{q}.json"))["results"]
    s, e = map(float, open(f"{tmp}/{q}.wall").read().split())
    t = r["timing_s"]
    fixed = ", ".join("0" if g in ("contexts", "c2c") else f"{t[g]:.2f}" for g in groups)
    c = r["c2c"]
    steps = ", ".join(f"{x:.3f}" for x in c["step_seconds"]["blocks"])
    blocks = [b["block_bytes"] for b in c["blocks"]]
    print(f"#   {q}: group_s {{ {fixed} }}")
    print(f"#   {q}: c2c_step_s {{ {steps} }} for blocks {', '.join(str(b >> 10) + ' KiB' for b in blocks)}; "
          f"latency {c['step_seconds']['latency']:.3f}; one pair, {c['steps']} steps")
    if len(blocks) >= 2:
        per = (c["step_seconds"]["blocks"][-1] - c["step_seconds"]["blocks"][-2]) / (blocks[-1] - blocks[-2])
        print(f"#   {q}: c2c_bytes_s {per:.3g} (the two largest blocks)")
    ctx = r["contexts"]
    print(f"#   {q}: contexts {t['contexts']:.2f} s for " + ", ".join(f"{k} {ctx[k]['teams']} teams ({ctx[k]['value']})" for k in ("fp", "int", "mem")))
    p = json.load(open(f"{tmp}/plan-{q}.json"))["results"]["plan"]
    print(f"# {q} probe here: measured {e - s:.1f} s wall (groups {sum(t.values()):.1f} s), the plan predicted {p['predicted_s']:.1f} s")
PY

# The model from 2 to 256 CPUs.
echo "# cpus  before_s  now_s  at_most_s  c2c_pairs  c2c_rounds  contexts_teams  (synthetic 2-socket server; recorded machines after)"
for n in 2 4 8 16 32 64 96 128 192 256; do
	if [ "$n" -le 2 ]; then
		spec="pack:1 [numa(memory=16GiB)] l3:1(size=32MiB) l2:$n(size=1MiB) l1d:1(size=48KiB) core:1 pu:1"
	else
		spec="pack:2 [numa(memory=64GiB)] l3:1(size=32MiB) l2:$((n / 4))(size=1MiB) l1d:1(size=48KiB) core:1 pu:2"
	fi
	lstopo --input "$spec" --of xml "$tmp/s$n.xml" 2>/dev/null
	"$as" probe --plan --json --topology "$tmp/s$n.xml" >"$tmp/p$n.json"
done
python3 - "$tmp" <<'PY' | tee "$tmp/table.txt"
import json, glob, os, sys
tmp = sys.argv[1]
rows = []
for n in (2, 4, 8, 16, 32, 64, 96, 128, 192, 256):
    p = json.load(open(f"{tmp}/p{n}.json"))["results"]["plan"]
    rows.append((n, p["predicted_all_s"], p["predicted_s"], p["predicted_max_s"], p["c2c"].get("measured_pairs", 0),
                 p["c2c"].get("rounds", 0), len(p["contexts"]["teams"])))
    print(f"  {n:5d} {p['predicted_all_s']:9.1f} {p['predicted_s']:6.1f} {p['predicted_max_s']:10.1f} {rows[-1][4]:10d} {rows[-1][5]:11d} {rows[-1][6]:15d}")
with open(f"{tmp}/synthetic.dat", "w") as f:
    for r in rows:
        f.write(" ".join(str(x) for x in r) + "\n")
PY
echo "# recorded machines (tests/fixtures/topo/hwloc-*.xml): cpus, classes, pairs measured of all, rounds, before_s, now_s, at_most_s"
: >"$tmp/recorded.dat"
for f in tests/fixtures/topo/hwloc-*.xml; do
	"$as" probe --plan --json --topology "$f" | python3 -c "
import json, sys
p = json.load(sys.stdin)['results']['plan']; c = p['c2c']
print(f\"  {'$(basename "$f" .xml)':34s} {p['cpus']:4d} {len(c['classes']):3d} {c['measured_pairs']:4d} of {c['pairs']:6d} {c['rounds']:2d} {p['predicted_all_s']:9.1f} {p['predicted_s']:6.1f} {p['predicted_max_s']:6.1f}\")
open('$tmp/recorded.dat', 'a').write(f\"{p['cpus']} {p['predicted_s']} {p['predicted_all_s']}\n\")"
done
if command -v gnuplot >/dev/null; then
	gnuplot <<GP
set terminal svg size 720,440
set output 'docs/figures/probe-scaling.svg'
set title 'archscope probe: predicted time of a full probe against CPUs'
set xlabel 'CPUs'
set ylabel 'seconds'
set logscale xy
set xrange [1.6:420]
set key left top
set grid
plot '$tmp/synthetic.dat' using 1:2 with linespoints lw 2 title 'before: every c2c pair (round robin), every team size', \
     '$tmp/synthetic.dat' using 1:3 with linespoints lw 2 title 'now: c2c by class, contexts by doubling and bisection', \
     '$tmp/synthetic.dat' using 1:4 with lines dt 2 title 'now, at most (finer c2c classes take their budget)', \
     '$tmp/recorded.dat' using 1:3 with points pt 6 ps 1.2 title 'recorded big machines, before', \
     '$tmp/recorded.dat' using 1:2 with points pt 7 ps 1.2 title 'recorded big machines, now', \
     (x <= 16 ? 30 : x >= 128 ? 60 : 30 + 30 * (x - 16) / 112.0) with lines lc rgb 'gray' title 'budget'
GP
	echo "# figure: docs/figures/probe-scaling.svg"
fi
