#!/bin/bash
# Overhead of `archscope stack` (issue 25 item 10) and the false-positive rate of its spin
# detection (item 3), on the example programs (examples/stack/, built by CMake).
# 1. Overhead: the lock-heavy example (UNITS x 1000 contended mutex lock/unlock pairs on N threads)
#    run plain, under the preload library alone, under `archscope stack --no-sample` and under
#    `archscope stack` (library + task-clock sampling; its wall_s of the N-thread run), interleaved over ROUNDS rounds; prints the medians
#    and the ratios to the plain runs (target <= 1.03), each with a 90 % bootstrap interval (rounds
#    resampled) that says what this machine's noise resolves. Plain and preload runs are timed by
#    Python around fork/exec; `stack` times its runs itself (fork to exit, polled every 2 ms).
#    The load average before and after is printed: on a shared machine the runs' spread is its noise.
#    The CPU time (user + system) of the plain and preload runs is printed too: it does not include
#    waiting for a CPU, so it is steadier than wall time under other load (but a 2-thread run
#    that got one CPU did less contended locking).
# 2. Spin detection: every example under `stack -t N -r 1`; samples taken and samples classified as
#    spinning in user code. In the examples that do not spin in user code, every spin sample is a
#    false positive; user-spin is the true positive.
# Usage: bench/stack-overhead.sh   (ROUNDS=21 N=2 UNITS=5000; about two minutes)
set -u
cd "$(dirname "$0")/.."
A=${ARCHSCOPE:-build/archscope}
B=$(dirname "$A")
[ -x "$A" ] && [ -x "$B/stack-lock-heavy" ] || { echo "build first (cmake + ninja)" >&2; exit 1; }
export A B ROUNDS=${ROUNDS:-21} N=${N:-2} UNITS=${UNITS:-5000}
python3 - <<'PY'
import json, os, random, statistics, subprocess, tempfile, time
A, B, R, N, U = os.environ["A"], os.environ["B"], int(os.environ["ROUNDS"]), os.environ["N"], os.environ["UNITS"]
prog = [B + "/stack-lock-heavy", N, U]
rec = tempfile.mkdtemp(prefix="stack-overhead.")
pre_env = dict(os.environ, LD_PRELOAD=os.path.abspath(B + "/libarchscope-preload.so"), ARCHSCOPE_STACK_DIR=rec)
cpu = {"plain": [], "pre": []}
def timed(env=None):
    # wall time, and the program's CPU time (user + system, wait4): the latter does not grow when
    # the program waits for a CPU that other load holds
    t = time.perf_counter()
    p = subprocess.Popen(prog, stdout=subprocess.DEVNULL, env=env)
    _, st, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    assert st == 0
    cpu["pre" if env else "plain"].append(ru.ru_utime + ru.ru_stime)
    return wall
def stack_wall(extra):
    out = subprocess.run([A, "stack", "-q", "-t", N, "-r", "1", "--json", *extra, "--", B + "/stack-lock-heavy", "{T}", U],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["results"]["runs"][0]["wall_s"]
def load():
    return " ".join(open("/proc/loadavg").read().split()[:3])
load0 = load()
plain, pre, nosample, stack = [], [], [], []
for r in range(R):
    plain.append(timed())
    pre.append(timed(pre_env))
    for f in os.listdir(rec):
        os.unlink(os.path.join(rec, f))
    nosample.append(stack_wall(["--no-sample"]))
    stack.append(stack_wall([]))
os.rmdir(rec)
mp, mq, mn, ms = (statistics.median(x) for x in (plain, pre, nosample, stack))
print("== overhead: %s, %d rounds interleaved (median wall time; min..max); load average %s before, %s after"
      % (" ".join(prog), R, load0, load()))
for name, v in (("plain", plain), ("preload library", pre), ("stack --no-sample", nosample), ("archscope stack", stack)):
    print("  %-18s %.4f s  (%.4f .. %.4f s)" % (name, statistics.median(v), min(v), max(v)))
rng = random.Random(1)
def interval(v):
    # 90 % bootstrap interval of median(v) / median(plain), rounds resampled together
    rs = []
    for _ in range(2000):
        k = [rng.randrange(R) for _ in range(R)]
        rs.append(statistics.median(v[i] for i in k) / statistics.median(plain[i] for i in k))
    rs.sort()
    return "(90 %% interval %.3f .. %.3f)" % (rs[100], rs[1899])
print("  ratio preload library / plain    %.3f  %s" % (mq / mp, interval(pre)))
print("  ratio stack --no-sample / plain  %.3f  %s" % (mn / mp, interval(nosample)))
print("  ratio archscope stack / plain    %.3f  %s  (target <= 1.03)" % (ms / mp, interval(stack)))
cp, cq = statistics.median(cpu["plain"]), statistics.median(cpu["pre"])
print("  CPU time (user + system) plain %.4f s, preload library %.4f s: ratio %.3f" % (cp, cq, cq / cp))
print()
print("== spin detection: samples in user-code spin loops (stack -t %s -r 1, task clock every 4 ms)" % N)
examples = [("parallel", "compute loop", False), ("memory", "streaming loop", False), ("mutex", "blocking lock", False),
            ("barrier", "barrier", False), ("end-imbalance", "compute + join", False),
            ("lock-heavy", "contended mutex", False), ("pthread-spin", "pthread_spin (libc, wrapped)", False),
            ("user-spin", "hand-written spin lock", True)]
fp_s = fp_all = 0
for name, what, spins in examples:
    units = {"lock-heavy": "1000", "user-spin": "1000", "memory": "1000"}.get(name, "3000")
    out = subprocess.run([A, "stack", "-q", "-t", N, "-r", "1", "--json", "--", "%s/stack-%s" % (B, name), "{T}", units],
                         capture_output=True, text=True)
    res = json.loads(out.stdout)["results"]
    if "sampling" in res:
        print("  sampling refused:", res["sampling"])
        break
    tot = spin = 0
    for p in res["runs"]:
        tot += p.get("samples", 0)
        spin += p.get("spin_samples", 0)
    if not spins:
        fp_s += spin
        fp_all += tot
    print("  %-14s %-30s %5d samples, %5d as spinning (%5.1f %%)%s" % (name, what, tot, spin, 100 * spin / max(tot, 1),
          "  <- true positive" if spins else ""))
print("  false-positive rate on the non-spinning examples: %d of %d samples (%.2f %%)" % (fp_s, fp_all, 100 * fp_s / max(fp_all, 1)))
PY
