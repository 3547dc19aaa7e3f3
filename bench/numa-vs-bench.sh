#!/bin/bash
# numa matrix against bench (issue 35 item 11): the local memory bandwidth of node 0, one thread and
# all CPUs of the node, as `numa matrix --kernel K` measures it (bench's kernel, working set,
# repetitions and pages) and as `bench K --level MEM` (-t N for the all-CPU variant, N = the
# matrix's thread count; node 0's CPUs are the first allowed ones here) measures it, interleaved
# over ROUNDS rounds. Prints every round, then per quantity the median of each command, the
# run-to-run spread of each ((max - min) / median over the rounds) and the ratio of the medians,
# which agrees when |ratio - 1| is within the larger spread. Also the matrix's two memory
# latencies (page-local and fully random) per round.
# Usage: bench/numa-vs-bench.sh   (ROUNDS=5, KERNEL=triad; one round ~25 s on 2 CPUs)
set -u
cd "$(dirname "$0")/.."
A=${ARCHSCOPE:-build/archscope}
[ -x "$A" ] || { echo "build first: bash scripts/setup.sh" >&2; exit 1; }
export A ROUNDS=${ROUNDS:-5} KERNEL=${KERNEL:-triad}
python3 - <<'PY'
import json, os, statistics, subprocess
A, R, K = os.environ["A"], int(os.environ["ROUNDS"]), os.environ["KERNEL"]

def run(*args):
    p = subprocess.run([A, *args, "--json"], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.strip()[-300:]}")
    return json.loads(p.stdout)["results"]

rows = {k: [] for k in ("numa1", "bench1", "numaN", "benchN", "lat", "latr")}
huge = []
print(f"kernel {K}; GB/s of real bytes (write-allocate reads counted), median of each command's repetitions")
print(f"{'round':5}  {'numa 1t':>8} {'bench 1t':>8} {'ratio':>6}  {'numa all':>8} {'bench all':>9} {'ratio':>6}"
      f"  {'sizes (numa/bench)':>20}  {'lat page-local':>14} {'lat random':>10}")
for r in range(R):
    m = run("numa", "matrix", "--kernel", K)
    n = m["threads"][0]["threads"]
    b1 = run("bench", K, "--level", "MEM")["runs"][0]
    bn = run("bench", K, "--level", "MEM", "-t", str(n))["runs"][0]
    v = dict(numa1=m["bandwidth_1thread_gbs"][0][0], bench1=b1["gbs_real"]["median"],
             numaN=m["bandwidth_gbs"][0][0], benchN=bn["gbs_real"]["median"],
             lat=m["latency_ns"][0][0], latr=m["latency_random_ns"][0][0])
    for k in rows:
        rows[k].append(v[k])
    sizes = f"{m['bandwidth_bytes'] >> 20}/{b1['size_bytes'] >> 20} MiB"
    huge.append(min(m["bandwidth_huge_fraction"], b1["huge_fraction"], bn["huge_fraction"]))
    print(f"{r + 1:5}  {v['numa1']:8.2f} {v['bench1']:8.2f} {v['numa1'] / v['bench1']:6.3f}  {v['numaN']:8.2f} "
          f"{v['benchN']:9.2f} {v['numaN'] / v['benchN']:6.3f}  {sizes:>20}  {v['lat']:11.1f} ns {v['latr']:7.1f} ns",
          flush=True)
    if r == 0:
        print(f"       (numa: {m['kernel']}, {m['reps']} reps of >= {m['min_time_s']} s, streams {m['bandwidth_bytes'] >> 20} MiB "
              f"from {m['bandwidth_size_from'][:60]}...; {n} threads in the all-CPU run)")
med = statistics.median
def spread(x):
    return (max(x) - min(x)) / med(x)
print()
ok = True
for a, b, what in (("numa1", "bench1", "one thread"), ("numaN", "benchN", "all CPUs of node 0")):
    ra = med(rows[a]) / med(rows[b])
    rr = med([x / y for x, y in zip(rows[a], rows[b])])
    s = max(spread(rows[a]), spread(rows[b]))
    agree = abs(ra - 1) <= s
    ok &= agree
    print(f"{what:20}: numa {med(rows[a]):6.2f} GB/s (spread {100 * spread(rows[a]):4.1f} %), bench {med(rows[b]):6.2f} GB/s "
          f"(spread {100 * spread(rows[b]):4.1f} %); ratio of medians {ra:.3f}, median of the rounds' ratios {rr:.3f}: "
          f"{'agrees' if agree else 'DISAGREES'} within the larger spread ({100 * s:.1f} %)")
print(f"memory latency (numa matrix, node 0): page-local {med(rows['lat']):.1f} ns, fully random {med(rows['latr']):.1f} ns "
      f"(ratio {med(rows['latr']) / med(rows['lat']):.2f})")
print(f"streams on huge pages: at least {100 * min(huge):.0f} % in every run of both commands")
print("numa matrix and bench agree" if ok else "numa matrix and bench DISAGREE")
PY
