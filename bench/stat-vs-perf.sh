#!/bin/bash
# archscope stat side by side with perf stat (Debian linux-perf), issue 26 item 8:
# 1. the same software events of the same programs: perf stat -r R -x, against archscope stat -r R
#    --json, per event the two means and their ratio (page faults must agree within 1 %);
# 2. the time each tool adds per run of a trivial program (/bin/true): ROUNDS interleaved rounds of
#    R runs under each tool and R runs of the program alone (posix_spawn and wait from Python),
#    per-run medians; added = tool - alone;
# issue 35 item 12, the options perf stat users expect, same software counts side by side:
# 3. -x,: both tools' CSV of the same programs, run by run, page faults and context switches (means
#    of R single runs, from each tool's own CSV lines) and their ratio;
# 4. -I 100: a program that touches 4 MB every 100 ms for 1.5 s, under each tool: how many intervals,
#    the page faults summed over them, the largest interval, and the ratio of the sums;
# 5. -p PID: one process (sleeps 0.3 s, touches 32 MB, sleeps) counted by both tools attached at the
#    same time for the same 1.5 s (each with "-- sleep 1.5"), R rounds: page faults, context
#    switches, task-clock, and their ratios.
# Usage: bench/stat-vs-perf.sh   (R=20 ROUNDS=5; a few minutes)
set -u
cd "$(dirname "$0")/.."
A=${ARCHSCOPE:-build/archscope}
[ -x "$A" ] || { echo "build first: bash scripts/setup.sh" >&2; exit 1; }
command -v perf >/dev/null || { echo "needs perf (Debian linux-perf)" >&2; exit 1; }
R=${R:-20} ROUNDS=${ROUNDS:-5}
export A R ROUNDS
echo "== archscope $("$A" --version | cut -d' ' -f2) against $(perf --version); $(nproc) CPUs; $(uname -r)"
echo "== kernel.perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid), uid $(id -u): both count user and kernel mode as root"
python3 - <<'PY'
import json, os, statistics, subprocess, time
A, R, ROUNDS = os.environ["A"], int(os.environ["R"]), int(os.environ["ROUNDS"])
events = ["page-faults", "minor-faults", "major-faults", "context-switches", "cpu-migrations", "task-clock"]
programs = [
    ("true", ["true"]),
    ("sh: cat + ls", ["sh", "-c", "cat /dev/null; ls / >/dev/null"]),
    ("perl 1 MB", ["perl", "-e", '$x = "a" x 1000000']),
    ("perl 24 MB", ["perl", "-e", '$x = "a" x 24000000']),
    ("perl 3 threads", ["perl", "-Mthreads", "-e",
                        'my @t = map { my $n = $_; threads->create(sub { my $x = "a" x ($n * 4000000); length $x }) } 1 .. 3; $_->join for @t']),
]

def perf_means(argv):
    # perf stat -r prints its means of counts as integers: a page fault in 47 is 2 %, so perf runs
    # once per run here and the mean is taken over its exact per-run values
    vals = {}
    for _ in range(R):
        p = subprocess.run(["perf", "stat", "-x,", "-e", ",".join(events), "--"] + argv,
                           capture_output=True, text=True)
        for line in p.stderr.splitlines():
            f = line.split(",")
            if len(f) > 3 and f[2].split(":")[0] in events:
                try:
                    vals.setdefault(f[2].split(":")[0], []).append(float(f[0]))
                except ValueError:
                    pass
    return {k: statistics.mean(v) for k, v in vals.items()}

def archscope_means(argv):
    # the report goes to stderr or -o (issue 35): the JSON from a file
    out = "/tmp/stat-vs-perf-%d.json" % os.getpid()
    subprocess.run([A, "stat", "-q", "--json", "-o", out, "-r", str(R), "-e", ",".join(events), "--"] + argv,
                   capture_output=True, text=True)
    d = json.load(open(out))["results"]
    os.unlink(out)
    return {e["name"]: e["mean"] for e in d["events"]}

print("\n1. means over %d runs (task-clock in ms; counts per run)" % R)
print("%-16s %-17s %14s %14s %9s" % ("program", "event", "perf stat", "archscope", "ratio"))
worst = 0.0
for label, argv in programs:
    pm, am = perf_means(argv), archscope_means(argv)
    for ev in events:
        pv, av = pm.get(ev), am.get(ev)
        if ev == "task-clock":
            pv = pv if pv is None else pv        # perf -x prints msec
            av = av if av is None else av / 1e6  # archscope: ns
        ratio = av / pv if pv and av is not None else float("nan")
        if ev == "page-faults" and pv:
            worst = max(worst, abs(ratio - 1))
        fmt = lambda v: "none" if v is None else ("%.3f" % v if ev == "task-clock" else "%.2f" % v)
        print("%-16s %-17s %14s %14s %9.4f" % (label, ev, fmt(pv), fmt(av), ratio))
print("page faults: largest difference %.2f %% (target: within 1 %%)" % (100 * worst))

def alone(n):
    t = time.perf_counter()
    for _ in range(n):
        pid = os.posix_spawnp("true", ["true"], os.environ)
        os.waitpid(pid, 0)
    return (time.perf_counter() - t) / n

def tool(cmd, n):
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.perf_counter() - t) / n

ev = "page-faults,context-switches,task-clock"
base, perf_t, as_t, perf1, as1 = [], [], [], [], []
for r in range(ROUNDS):
    base.append(alone(R))
    perf_t.append(tool(["perf", "stat", "-r", str(R), "-e", ev, "--", "true"], R))
    as_t.append(tool([A, "stat", "-q", "-r", str(R), "-e", ev, "--", "true"], R))
    # a tool started once per run, as a script would call it
    perf1.append(tool(["perf", "stat", "-r", "1", "-e", ev, "--", "true"], 1))
    as1.append(tool([A, "stat", "-q", "-r", "1", "-e", ev, "--", "true"], 1))
m = statistics.median
b = m(base)
print("\n2. time per run of /bin/true, medians of %d interleaved rounds of %d runs" % (ROUNDS, R))
print("  program alone (spawn+wait)      %8.3f ms" % (1e3 * b))
print("  perf stat -r %-3d               %8.3f ms   added %7.3f ms per run" % (R, 1e3 * m(perf_t), 1e3 * (m(perf_t) - b)))
print("  archscope stat -r %-3d          %8.3f ms   added %7.3f ms per run" % (R, 1e3 * m(as_t), 1e3 * (m(as_t) - b)))
print("  perf stat -r 1 (whole tool)     %8.3f ms" % (1e3 * m(perf1)))
print("  archscope stat -r 1 (whole)     %8.3f ms" % (1e3 * m(as1)))
print("added time per run, archscope / perf: %.2f (target: <= 1)" % ((m(as_t) - b) / (m(perf_t) - b)))

# --- 3. -x, : CSV from both, run by run ---------------------------------------------------------
def csv_counts(text):
    """{event: [values]} from perf-style CSV lines (value,unit,event,...)."""
    out = {}
    for line in text.splitlines():
        f = line.split(",")
        if len(f) < 3:
            continue
        try:
            out.setdefault(f[2].split(":")[0], []).append(float(f[0]))
        except ValueError:
            pass
    return out

ev3 = ["page-faults", "context-switches", "task-clock"]
print("\n3. -x, (CSV): means of %d single runs, each value read from the tool's own CSV line" % R)
print("%-16s %-17s %14s %14s %9s" % ("program", "event", "perf stat -x,", "archscope -x,", "ratio"))
worst3 = 0.0
for label, argv in programs[1:4]:
    pv, av = {}, {}
    for _ in range(R):
        p = subprocess.run(["perf", "stat", "-x,", "-e", ",".join(ev3), "--"] + argv, capture_output=True, text=True)
        for k, v in csv_counts(p.stderr).items():
            pv.setdefault(k, []).extend(v)
        a = subprocess.run([A, "stat", "-q", "-r", "1", "-x,", "-e", ",".join(ev3), "--"] + argv, capture_output=True, text=True)
        for k, v in csv_counts(a.stderr).items():
            av.setdefault(k, []).extend(v)
    for ev in ev3:
        x, y = statistics.mean(pv.get(ev, [float("nan")])), statistics.mean(av.get(ev, [float("nan")]))
        r = y / x if x else float("nan")
        if ev == "page-faults":
            worst3 = max(worst3, abs(r - 1))
        print("%-16s %-17s %14.2f %14.2f %9.4f" % (label, ev + (" (ms)" if ev == "task-clock" else ""), x, y, r))
print("page faults in CSV: largest difference %.2f %%" % (100 * worst3))

# --- 4. -I 100 ---------------------------------------------------------------------------------
toucher = ["perl", "-MTime::HiRes=sleep", "-e",
           'my @k; for (1 .. 15) { push @k, "a" x 4000000; sleep 0.1 }']
def interval_sums(text):
    t = {}
    for line in text.splitlines():
        f = line.split(",")
        if len(f) > 3 and f[3].split(":")[0] == "page-faults":
            try:
                t[float(f[0])] = float(f[1])
            except ValueError:
                pass
    return t
print("\n4. -I 100 -x, on a program touching 4 MB every 100 ms for 1.5 s (%d rounds)" % ROUNDS)
print("%-6s %10s %10s %12s %12s %11s %11s %8s" % ("round", "perf n", "ours n", "perf sum", "ours sum",
                                                 "perf max", "ours max", "ratio"))
ratios4 = []
for r in range(ROUNDS):
    p = subprocess.run(["perf", "stat", "-x,", "-I", "100", "-e", "page-faults", "--"] + toucher, capture_output=True, text=True)
    a = subprocess.run([A, "stat", "-q", "-x,", "-I", "100", "-e", "page-faults", "--"] + toucher, capture_output=True, text=True)
    pi, ai = interval_sums(p.stderr), interval_sums(a.stderr)
    ps, as_ = sum(pi.values()), sum(ai.values())
    ratios4.append(as_ / ps if ps else float("nan"))
    print("%-6d %10d %10d %12.0f %12.0f %11.0f %11.0f %8.4f" % (r + 1, len(pi), len(ai), ps, as_,
                                                               max(pi.values() or [0]), max(ai.values() or [0]), ratios4[-1]))
print("page faults summed over the intervals, archscope / perf: median %.4f" % statistics.median(ratios4))

# --- 5. -p PID ---------------------------------------------------------------------------------
victim = ["perl", "-MTime::HiRes=sleep", "-e", 'sleep 0.3; my $x = "a" x 32000000; sleep 3']
print("\n5. -p PID: one process (sleeps 0.3 s, touches 32 MB, sleeps) under both tools at once, -- sleep 1.5 (%d rounds)" % ROUNDS)
print("%-6s %-17s %14s %14s %9s" % ("round", "event", "perf stat -p", "archscope -p", "ratio"))
rat5 = {e: [] for e in ev3}
for r in range(ROUNDS):
    v = subprocess.Popen(victim)
    time.sleep(0.05)
    p = subprocess.Popen(["perf", "stat", "-x,", "-p", str(v.pid), "-e", ",".join(ev3), "--", "sleep", "1.5"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    a = subprocess.Popen([A, "stat", "-q", "-x,", "-p", str(v.pid), "-e", ",".join(ev3), "--", "sleep", "1.5"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    pe, ae = p.communicate()[1], a.communicate()[1]
    v.kill()
    v.wait()
    pc, ac = csv_counts(pe), csv_counts(ae)
    for ev in ev3:
        x = pc.get(ev, [float("nan")])[0]
        y = ac.get(ev, [float("nan")])[0]
        rat5[ev].append(y / x if x else float("nan"))
        print("%-6d %-17s %14.2f %14.2f %9.4f" % (r + 1, ev + (" (ms)" if ev == "task-clock" else ""), x, y, rat5[ev][-1]))
for ev in ev3:
    print("%-17s archscope / perf, median over rounds: %.4f" % (ev, statistics.median(rat5[ev])))
PY
