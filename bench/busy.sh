#!/usr/bin/env bash
# Right or flagged beside other work (issue 47): probe (every group, --quick), bench (triad in L1,
# L2 and memory) and tune stencil run alone and beside each co-runner on the last allowed CPU: a
# busy loop (cpu), a memory-bandwidth hog (memory: archscope bench copy over 512 MiB), and a
# timer-interrupt storm (interrupts: a process waking every 50 us). Each answer beside a co-runner
# is "right" (within its tolerance of the same run's quiet answer), "flagged" (noisy or
# implausible, or withdrawn as "cannot tell"), or "WRONG" (neither: a silent wrong answer). The
# quiet runs count their flags (false alarms: the machine was quiet). Then the model's accuracy:
# probe -o alone and beside the memory hog, and model -p Benchmark of stream-triad with each file;
# the two errors within 5 points, or the loaded file says why not (its flags).
#   bench/busy.sh [RUNS] [QUIET_RUNS]     (defaults 3 and 5: RUNS rounds of the four conditions,
#                                          then quiet runs until QUIET_RUNS quiet runs in all)
# "Right" is within the quiet envelope: between the least and the largest value the quiet runs
# read (unflagged), widened by a tolerance (line, page size, contexts, registers: one of the
# quiet values; cache sizes 25 %; latencies 15 %; clock 5 %; FLOP/cy 10 %; time slice 25 %;
# c2c latency 50 %; bandwidths 10 %; stencil speedup 10 %): a guest's quiet runs disagree among
# themselves (its L3 read 5 and 10 MiB in two quiet runs here), and one quiet run is no truth.
# BUSY_KEEP=DIR keeps every run's output there.
set -uo pipefail
cd "$(dirname "$0")/.."
[ -x build/archscope ] || bash scripts/setup.sh >/dev/null
runs=${1:-3} quiet_runs=${2:-5}
bin=$(pwd)/build/archscope
tmp=${BUSY_KEEP:-$(mktemp -d)}
mkdir -p "$tmp"
co=
stop_co() { [ -n "$co" ] && kill "$co" 2>/dev/null; wait 2>/dev/null; co=; }
trap 'stop_co; [ -n "${BUSY_KEEP:-}" ] || rm -rf "$tmp"' EXIT
cpu=$(python3 -c "import os; print(sorted(os.sched_getaffinity(0))[-1])")
[ "$(nproc)" -ge 2 ] || { echo "skip: needs 2 CPUs (one for the co-runner)"; exit 0; }
start_co() {
	case $1 in
	quiet) co= ;;
	cpu) taskset -c "$cpu" sh -c 'while :; do :; done' & co=$! ;;
	memory) taskset -c "$cpu" "$bin" bench copy -s 512MiB --reps 64 --min-time 1 -q >/dev/null 2>&1 & co=$! ;;
	interrupts) taskset -c "$cpu" python3 -c 'import time
while True: time.sleep(0.00005)' & co=$! ;;
	esac
	sleep 0.5
}
measure() { # measure DIR: one round of the measured commands into DIR
	mkdir -p "$1"
	"$bin" probe --quick --json >"$1/probe.json" 2>"$1/probe.err"
	for s in 32KiB 1MiB 512MiB; do
		"$bin" bench triad -s "$s" --json >"$1/bench-$s.json" 2>"$1/bench-$s.err"
	done
	[ -f "$tmp/m-quiet.yaml" ] && "$bin" tune stencil -m "$tmp/m-quiet.yaml" --json >"$1/stencil.json" 2>"$1/stencil.err"
	:
}
echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), family $(grep -m1 '^cpu family' /proc/cpuinfo | awk '{print $4}') model $(grep -m1 '^model[[:space:]]*:' /proc/cpuinfo | awk '{print $3}'), $(nproc) CPUs; co-runners on CPU $cpu; $(date -u +%FT%TZ); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
t0=$(date +%s)
echo "probe -o alone (the machine file the stencil and the model use)"
"$bin" probe -o "$tmp/m-quiet.yaml" -q >/dev/null 2>"$tmp/m-quiet.err" || echo "  probe -o alone failed: $(tail -1 "$tmp/m-quiet.err")"
for r in $(seq 1 "$runs"); do
	for c in quiet cpu memory interrupts; do
		start_co "$c"
		measure "$tmp/r$r-$c"
		stop_co
		echo "round $r: $c done ($(( $(date +%s) - t0 )) s)"
	done
done
for q in $(seq $((runs + 1)) "$quiet_runs"); do
	measure "$tmp/r$q-quiet"
	echo "extra quiet run $q done ($(( $(date +%s) - t0 )) s)"
done
echo "probe -o beside the memory hog"
start_co memory
"$bin" probe -o "$tmp/m-memory.yaml" -q >/dev/null 2>"$tmp/m-memory.err" || echo "  probe -o beside the hog failed: $(tail -1 "$tmp/m-memory.err")"
stop_co
for m in quiet memory; do
	[ -f "$tmp/m-$m.yaml" ] && "$bin" model kernels/stream-triad.c -m "$tmp/m-$m.yaml" -D N 20000000 -p Benchmark --json \
		>"$tmp/model-$m.json" 2>"$tmp/model-$m.err"
	[ -f "$tmp/m-$m.yaml" ] && "$bin" machine validate "$tmp/m-$m.yaml" >/dev/null 2>"$tmp/validate-$m.err"
done
python3 - "$tmp" "$runs" "$quiet_runs" <<'PY'
import glob, json, os, sys
tmp, runs, quiet_runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def load(p):
    try:
        return json.load(open(p))["results"]
    except Exception:
        return None
def flagged(a, cond=None):
    if not isinstance(a, dict):
        return False
    if a.get("noisy") is True or a.get("implausible"):
        return True
    if a.get("value") is None and "cannot tell" in (a.get("reason") or ""):
        return True
    return bool(cond and cond.get("noisy"))
def close(a, b, tol):
    if a is None or b is None:
        return a == b
    if tol == 0:
        return a == b
    return abs(a - b) <= tol * abs(b)
def probe_answers(r):
    """(name, value, flagged, tolerance) of probe's answers"""
    out = []
    def add(name, a, group, tol):
        cond = r.get(group, {}).get("conditions") if isinstance(r.get(group), dict) else None
        if isinstance(a, dict):
            out.append((name, a.get("value"), flagged(a, cond), tol))
    add("clock", r.get("clock"), "clock", 0.05)
    add("line", r.get("line"), "line", 0)
    c = r.get("caches", {})
    for lv in c.get("levels", []):
        add("L%d size" % lv["level"], lv["size"], "caches", 0.25)
        add("L%d latency" % lv["level"], lv["latency"], "caches", 0.15)
    add("memory latency", c.get("memory_latency"), "caches", 0.15)
    add("page size", r.get("tlb", {}).get("page_size"), "tlb", 0)
    for k in ("fp", "int", "mem"):
        add("contexts " + k, r.get("contexts", {}).get(k), "contexts", 0)
    for k in ("int", "fp"):
        add("registers " + k, r.get("registers", {}).get(k), "registers", 0)
    add("time slice", r.get("timeslice", {}).get("slice"), "timeslice", 0.25)
    ins = r.get("instr", {})
    fl = ins.get("flops_per_cycle", {})
    for p in ("SP", "DP"):
        v = fl.get(p, {}).get("vector", {}).get("total")
        if v is not None:
            cond = ins.get("conditions")
            out.append(("%s FLOP/cy" % p, v, bool(cond and (cond.get("noisy") or cond.get("implausible"))), 0.10))
    cc = r.get("c2c")
    if isinstance(cc, dict) and cc.get("latency_ns"):
        m = cc["latency_ns"]
        vals = [x for row in m for x in row if x is not None]
        if vals:
            cond = cc.get("conditions")
            out.append(("c2c latency", max(vals), bool(cond and (cond.get("noisy") or cond.get("implausible"))), 0.5))
    return out
def bench_answers(d):
    out = []
    for s in ("32KiB", "1MiB", "512MiB"):
        r = load(os.path.join(d, "bench-%s.json" % s))
        if r and r.get("runs"):
            run = r["runs"][0]
            out.append(("triad %s GB/s" % s, run["gbs"]["median"], bool(run.get("noisy")), 0.10))
    r = load(os.path.join(d, "stencil.json"))
    if r and "speedup" in r:
        out.append(("stencil speedup", r["speedup"], bool(r.get("noisy")), 0.10))
    return out
def answers(d):
    r = load(os.path.join(d, "probe.json"))
    return (probe_answers(r) if r else []) + bench_answers(d)
total = {}
false_alarms = quiet_answers = 0
env = {}  # name -> the quiet runs' unflagged values
for rr in range(1, max(runs, quiet_runs) + 1):
    qd = os.path.join(tmp, "r%d-quiet" % rr)
    if os.path.isdir(qd):
        for n, v, f, t in answers(qd):
            if not f and v is not None:
                env.setdefault(n, (t, []))[1].append(v)
def in_envelope(n, v):
    if n not in env:
        return None
    tol, vals = env[n]
    if v is None:
        return False
    if tol == 0:
        return v in vals
    return min(vals) * (1 - tol) <= v <= max(vals) * (1 + tol)
for rr in range(1, max(runs, quiet_runs) + 1):
    qd = os.path.join(tmp, "r%d-quiet" % rr)
    if not os.path.isdir(qd):
        continue
    quiet = answers(qd)
    qf = [n for n, v, f, t in quiet if f]
    quiet_answers += len(quiet)
    false_alarms += len(qf)
    print("run %d quiet: %d answers, %d flagged%s" % (rr, len(quiet), len(qf), (": " + ", ".join(qf)) if qf else ""))
    for c in ("cpu", "memory", "interrupts"):
        d = os.path.join(tmp, "r%d-%s" % (rr, c))
        if not os.path.isdir(d):
            continue
        right = flag = wrong = noref = 0
        bad = []
        for n, v, f, tol in answers(d):
            ok = in_envelope(n, v)
            if f:
                flag += 1
            elif ok is None:
                noref += 1  # every quiet run flagged it (or lacks it): nothing to hold against
            elif ok:
                right += 1
            else:
                wrong += 1
                t, vals = env[n]
                bad.append("%s %.4g (quiet %.4g-%.4g)" % (n, v if v is not None else float("nan"), min(vals), max(vals)))
        t = total.setdefault(c, [0, 0, 0, 0])
        for i, x in enumerate((right, flag, wrong, noref)):
            t[i] += x
        print("run %d %-10s right %2d  flagged %2d  WRONG %d  no quiet reference %d%s" % (
            rr, c, right, flag, wrong, noref, ("  <- " + "; ".join(bad)) if bad else ""))
print()
for c, (right, flag, wrong, noref) in total.items():
    print("%-10s over the runs: right %d, flagged %d, silent wrong %d, no reference %d" % (c, right, flag, wrong, noref))
print("quiet runs: %d answers, %d flagged (false alarms on a quiet machine)" % (quiet_answers, false_alarms))
errs = {}
for m in ("quiet", "memory"):
    r = load(os.path.join(tmp, "model-%s.json" % m))
    e = None
    if r:
        try:
            e = r["benchmark"]["relative_error"]["ECM"]
        except Exception:
            e = None
    errs[m] = e
    warn = open(os.path.join(tmp, "validate-%s.err" % m)).read().strip() if os.path.exists(os.path.join(tmp, "validate-%s.err" % m)) else ""
    print("model stream-triad with the file probed %s: ECM error %s; machine validate: %s" % (
        "alone" if m == "quiet" else "beside the memory hog", e, warn.replace("\n", " | ") or "no warning"))
if errs.get("quiet") is not None and errs.get("memory") is not None:
    d = abs(errs["memory"] - errs["quiet"]) * 100
    print("model error difference: %.1f points (within 5: %s; else the loaded file's flags say why)" % (d, "yes" if d <= 5 else "no"))
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); $(( $(date +%s) - t0 )) s"
