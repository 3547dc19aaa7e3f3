#!/usr/bin/env bash
# archscope tune side by side with OpenBLAS (issue 30): RUNS full runs (default 3) of
# `tune gemm` (the generated kernel against OpenBLAS dgemm, one thread, interleaved, n = 8 ... 512)
# and of `tune stencil` (blocked vs naive beyond the last cache), on a machine file (default: the
# recorded probe of this CPU kind, else one probed now). Prints per run the blocks, the predicted
# best n, where the tuned kernel peaked (median, best repetition), tuned/OpenBLAS there, then the
# medians of every size per run, and the stencil's speedups.
#   bench/tune-vs-openblas.sh [MACHINE.yaml] [RUNS]     (PLOT=DIR keeps run 1's plot)
set -uo pipefail
cd "$(dirname "$0")/.."
[ -x build/archscope ] || bash scripts/setup.sh >/dev/null
bin=$(pwd)/build/archscope
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
machine=${1:-}
runs=${2:-3}
if [ -z "$machine" ]; then
	echo "probing this machine: $bin probe -o $tmp/machine.yaml (a few minutes)" >&2
	"$bin" probe -o "$tmp/machine.yaml" -q >/dev/null || { echo "probe failed" >&2; exit 1; }
	machine=$tmp/machine.yaml
fi
echo "# bench/tune-vs-openblas.sh $machine $runs at $(git log -1 --format=%h) on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-) ($(nproc) CPUs), $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$runs"); do
	"$bin" tune gemm -m "$machine" --json --plot "$tmp/plot$r" -q >"$tmp/gemm$r.json" || echo "run $r: tune gemm exited $?"
	"$bin" tune stencil -m "$machine" --json -q >"$tmp/stencil$r.json" || echo "run $r: tune stencil exited $?"
	if [ "$r" = 1 ] && [ -n "${PLOT:-}" ]; then mkdir -p "$PLOT" && cp "$tmp/plot1/"tune-gemm.* "$PLOT/"; fi
done
export tmp runs
python3 - <<'PY'
import json, os, statistics
tmp, runs = os.environ["tmp"], int(os.environ["runs"])
def load(name):
    try:
        return json.load(open(f"{tmp}/{name}"))["results"]
    except Exception as e:
        return None
g = [load(f"gemm{r}.json") for r in range(1, runs + 1)]
s = [load(f"stencil{r}.json") for r in range(1, runs + 1)]
first = next((x for x in g if x), None)
if first:
    i = first["inputs"]
    print(f"\ninputs: {i['registers']} vector registers ({i['registers_from']}), L1 {i['l1_bytes']} B, line {i['line_bytes']} B, "
          f"ISA {i['isa']} ({i['vector_doubles']} doubles); OpenBLAS: {first['openblas']}")
    for line in first["reasoning"]:
        print("  " + line)
    rb, lb = first["register_block"], first["l1_block"]
    print(f"register block {rb['m']} x {rb['n']} x {rb['k']}, L1 block {lb['m']} x {lb['n']} x {lb['k']}, "
          f"predicted best n {first['predicted_best_n']}")
print("\ngemm check per run (GFLOP/s medians of 11 interleaved repetitions)")
print(f"{'run':>3} {'peak n':>7} {'best-rep peak n':>15} {'within 1 step':>13} {'tuned@pred':>10} {'OpenBLAS@pred':>13} "
      f"{'ratio':>6} {'disturbed reps':>14}")
for r, x in enumerate(g, 1):
    if not x:
        print(f"{r:>3} failed"); continue
    c = x["check"]
    p = next(q for q in x["sizes"] if q["n"] == c["ratio_n"])
    dist = sum(q["disturbed_reps"] for q in x["sizes"])
    tot = 2 * x["reps"] * len(x["sizes"])
    print(f"{r:>3} {c['peak_n']:>7} {c['peak_n_best']:>15} {str(c['peak_near_prediction']):>13} {p['gflops_tuned']:>10.1f} "
          f"{p['gflops_openblas']:>13.1f} {c['ratio_at_predicted']:>6.2f} {dist:>6} of {tot}")
ok = [x for x in g if x]
if ok:
    print("\nper size: tuned / OpenBLAS medians per run, GFLOP/s (ratio of the medians over runs)")
    print(f"{'n':>4} " + " ".join(f"{'run ' + str(r):>13}" for r in range(1, len(ok) + 1)) + f" {'ratio':>6}")
    for k, q in enumerate(ok[0]["sizes"]):
        cells, t, o = [], [], []
        for x in ok:
            if k < len(x["sizes"]):
                z = x["sizes"][k]
                cells.append(f"{z['gflops_tuned']:6.1f}/{z['gflops_openblas']:<6.1f}")
                t.append(z["gflops_tuned"]); o.append(z["gflops_openblas"])
        mark = " <- predicted" if q["n"] == ok[0]["predicted_best_n"] else ""
        print(f"{q['n']:>4} " + " ".join(f"{c:>13}" for c in cells) + f" {statistics.median(t) / statistics.median(o):6.2f}{mark}")
print("\nstencil: blocked vs naive (medians of 11 interleaved sweeps)")
for r, x in enumerate(s, 1):
    if not x:
        print(f"run {r}: failed"); continue
    gr = x["grid"]
    print(f"run {r}: grid {gr['rows']} x {gr['cols']} ({gr['bytes'] / 2**20:.0f} MiB, last cache {gr['last_cache_bytes'] / 2**20:.0f} MiB), "
          f"blocked for {x['blocked_for']}, block {x['block']} columns: naive {x['naive']['mlups']:.0f} MLUP/s, "
          f"blocked {x['blocked']['mlups']:.0f} MLUP/s, speedup {x['speedup']:.2f}")
if s and s[0]:
    for line in s[0]["reasoning"]:
        print("  " + line)
PY
