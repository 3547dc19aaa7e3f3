#!/bin/bash
# numa matrix against the probe and bench on this machine (issue 28, "Done when"): the local
# entry of the matrix, latency[i][i] and bandwidth[i][i], against `probe caches`' memory latency
# and `bench load` at the memory level with the same working set and thread counts, run
# side by side (interleaved) over ROUNDS rounds; prints each round and the median ratios, which
# should lie within 15 % of 1. Runs the first node only (node 0 reading node 0). Then the model
# against the load: numa load --predict with the last matrix, one flow and two flows from node 0.
# Usage: bench/numa-vs-probe.sh   (ROUNDS=3, SIZE=256MiB; one round ~15 s on 2 CPUs)
set -u
cd "$(dirname "$0")/.."
A=${ARCHSCOPE:-build/archscope}
[ -x "$A" ] || { echo "build first: bash scripts/setup.sh" >&2; exit 1; }
export A ROUNDS=${ROUNDS:-3} SIZE=${SIZE:-256MiB}
python3 - <<'PY'
import json, os, statistics, subprocess
A, R, S = os.environ["A"], int(os.environ["ROUNDS"]), os.environ["SIZE"]

def run(*args):
    p = subprocess.run([A, *args, "--json"], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.strip()[-300:]}")
    return json.loads(p.stdout)["results"]

rows = {k: [] for k in ("lat", "bw1", "bwn")}
print(f"{'round':5}  {'numa lat':>9} {'probe lat':>9} {'ratio':>6}  {'numa 1t':>9} {'bench 1t':>9} {'ratio':>6}"
      f"  {'numa all':>9} {'bench all':>9} {'ratio':>6}")
for r in range(R):
    m = run("numa", "matrix", "--quick", "--size", S)
    threads = m["threads"][0]["threads"]
    p = run("probe", "caches", "--quick")["caches"]["memory_latency"]["value"]
    b1 = run("bench", "load", "-s", S)["runs"][0]["gbs_real"]["median"]
    bn = run("bench", "load", "-s", S, "-t", str(threads))["runs"][0]["gbs_real"]["median"]
    nan = float("nan")
    got = [m["latency_ns"][0][0], p, m["bandwidth_1thread_gbs"][0][0], b1, m["bandwidth_gbs"][0][0], bn]
    got = [nan if v is None else v for v in got]  # probe caches finds no memory plateau: null
    for k, (a, b) in (("lat", got[0:2]), ("bw1", got[2:4]), ("bwn", got[4:6])):
        if a == a and b == b:
            rows[k].append(a / b)
    def ratio(a, b):
        return f"{a / b:6.3f}" if a == a and b == b else "  none"
    print(f"{r + 1:5}  {got[0]:6.1f} ns {got[1]:6.1f} ns {ratio(got[0], got[1])}  {got[2]:4.1f} GB/s {got[3]:4.1f} GB/s"
          f" {ratio(got[2], got[3])}  {got[4]:4.1f} GB/s {got[5]:4.1f} GB/s {ratio(got[4], got[5])}", flush=True)
print()
print(f"nodes: {m['nodes']}, kernel {m['kernel']}, working set {S}, all-CPU runs {threads} threads")
for k, name in (("lat", "latency numa / probe caches memory latency"), ("bw1", "bandwidth 1 thread numa / bench load"),
                ("bwn", f"bandwidth {threads} threads numa / bench load")):
    if not rows[k]:
        print(f"{name:48} no round gave both figures")
        continue
    med = statistics.median(rows[k])
    print(f"{name:48} median {med:6.3f} of {len(rows[k])} rounds, range {min(rows[k]):.3f}-{max(rows[k]):.3f}"
          f"  ({'within' if abs(med - 1) <= 0.15 else 'NOT within'} 15 %)")
# The model beside the load generator, on the matrix of the last round (same kernel).
import tempfile
with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
    json.dump({"results": m}, f)
    f.flush()
    print()
    for flows in (["0:0:1"], ["0:0:1"] * threads):
        l = run("numa", "load", *flows, "--kernel", "load", "--size", "128MiB", "--duration", "3", "--no-alone",
                "--predict", f.name)
        for x in l["flows"]:
            print(f"numa load {' '.join(flows):24} flow {x['src']}:{x['dst']}:{x['threads']} measured {x['measured_gbs']:6.2f} GB/s,"
                  f" predicted {x['predicted_gbs']:6.2f} GB/s ({x['limit']}), measured / predicted {x['measured_gbs'] / x['predicted_gbs']:.3f}")
PY
