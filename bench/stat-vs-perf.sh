#!/bin/bash
# archscope stat side by side with perf stat (Debian linux-perf), issue 26 item 8:
# 1. the same software events of the same programs: perf stat -r R -x, against archscope stat -r R
#    --json, per event the two means and their ratio (page faults must agree within 1 %);
# 2. the time each tool adds per run of a trivial program (/bin/true): ROUNDS interleaved rounds of
#    R runs under each tool and R runs of the program alone (posix_spawn and wait from Python),
#    per-run medians; added = tool - alone.
# Usage: bench/stat-vs-perf.sh   (R=20 ROUNDS=5; a minute or two)
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
    p = subprocess.run([A, "stat", "-q", "--json", "-r", str(R), "-e", ",".join(events), "--"] + argv,
                       capture_output=True, text=True)
    d = json.loads(p.stdout)["results"]
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
PY
