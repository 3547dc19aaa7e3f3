#!/bin/bash
# How long `archscope compare` takes on two stat results of N events each (issue 35: 100k events took
# 32 s while each event was looked up by a linear search; the target is under a second). Two files
# of N synthetic events (5 runs each, the second file in another order, a tenth of the events
# shifted by 10 %) are written once, then compare runs ROUNDS times (text, --json, and -e with one
# event, which is the reading of the two files alone): min and median wall time, the CPU time (the
# two files are read by two threads), and the events tested and flagged as a check of the work.
# Usage: bench/compare-speed.sh   (N=100000 ROUNDS=5)
set -u
cd "$(dirname "$0")/.."
A=${ARCHSCOPE:-build/archscope}
[ -x "$A" ] || { echo "build first: bash scripts/setup.sh" >&2; exit 1; }
N=${N:-100000} ROUNDS=${ROUNDS:-5}
T=$(mktemp -d /tmp/compare-speed.XXXXXX)
trap 'rm -rf "$T"' EXIT
export A N ROUNDS T
echo "== archscope $("$A" --version | cut -d' ' -f2); $(nproc) CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - <<'PY'
import json, os, random, resource, statistics, subprocess, time
A, N, ROUNDS, T = os.environ["A"], int(os.environ["N"]), int(os.environ["ROUNDS"]), os.environ["T"]
rng = random.Random(35)
def doc(shift, order):
    ev = []
    for i in order:
        base = 1000 + i % 997
        k = 1.1 if shift and i % 10 == 0 else 1.0
        ev.append({"name": "synthetic-event-%06d" % i, "unit": "events",
                   "values": [base * k + rng.gauss(0, 5) for _ in range(5)]})
    return {"archscope": "bench", "command": "stat", "machine": {}, "results": {"events": ev}}
order = list(range(N))
json.dump(doc(False, order), open(T + "/a.json", "w"))
rng.shuffle(order)
json.dump(doc(True, order), open(T + "/b.json", "w"))
print("two files of %d events, %.1f MiB each" % (N, os.path.getsize(T + "/a.json") / 2**20))
def cpu():
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime
# -e one event: reading the two files (jansson) and little else
for label, mode in (("(text)", []), ("--json", ["--json"]), ("-e 1 event", ["-e", "synthetic-event-000001"])):
    times, cpus = [], []
    for _ in range(ROUNDS):
        t, c = time.perf_counter(), cpu()
        p = subprocess.run([A, "compare", "-q"] + mode + [T + "/a.json", T + "/b.json"], capture_output=True, text=True)
        times.append(time.perf_counter() - t)
        cpus.append(cpu() - c)
        assert p.returncode == 0, p.stderr[-500:]
    if mode == ["--json"]:
        r = json.loads(p.stdout)["results"]
        tested, flagged = r["tests"], r["significant"]
    print("compare %-11s wall min %.3f s, median %.3f s; CPU (both threads) min %.3f s over %d rounds" % (
        label, min(times), statistics.median(times), min(cpus), ROUNDS))
print("events tested %d, flagged %d (%d were shifted by 10 %%)" % (tested, flagged, (N + 9) // 10))
PY
