# A "1-thread" run that is not serial (issue 36, zstd -T1: a worker compresses while the main
# thread reads and writes) keeps more than one CPU busy with work; S = T1/TN is then held against
# a parallel run while S^ estimates the speedup over serial work, and their gap was reported as
# work_inflation (10 % of the bar on zstd). examples/stack/helper-thread.c keeps ~1.25 CPUs busy
# at 1 thread: stack says so (t1_busy_cpus, a note) and base is the speedup over the 1-thread
# run's work on one CPU (speedup_serial = t1_serial_s / TN) beside T1/TN. A program whose
# 1-thread run is serial (stack-parallel; the helper pinned to one CPU) is left as it was.
. "$(dirname "$0")/lib.sh"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
EX=$(dirname "$ARCHSCOPE")
[ -x "$EX/stack-helper-thread" ] && [ -x "$EX/stack-parallel" ] || skip "needs the stack examples beside $ARCHSCOPE"
check() { # check NAME EXPECT (parallel, serial): the stack of -t 1,2 in $TMP/out
	"$PY" - "$TMP/out" "$@" <<'PY' || fail "$1: wrong answer about the 1-thread reference (JSON in $TMP/out)"
import json, sys
name, expect = sys.argv[2], sys.argv[3]
d = json.load(open(sys.argv[1]))["results"]
one, r = d["runs"][0], d["runs"][1]
assert one["threads"] == 1 and r["threads"] == 2, (one["threads"], r["threads"])
c, n = r["components"], r["threads"]
print(name, "t1_busy_cpus", d.get("t1_busy_cpus"), "S %.2f" % r["speedup_actual"], "serial", r.get("speedup_serial"),
      "S^ %.2f" % r["speedup_estimated"], "error %.3f raw %s" % (r["error"], r.get("error_raw")),
      {k: round(v, 3) for k, v in c.items()})
for x in (one, r):
    assert abs(sum(x["components"].values()) - x["threads"]) < 1e-6, x["components"]
# the 1-thread point keeps T1 (one slot holds no more than one CPU's work)
assert "speedup_serial" not in one and one["components"]["base"] <= 1.05, one
if "t1_busy_cpus" in d:
    assert d["t1_busy_cpus"] >= 1.02, d["t1_busy_cpus"]
    assert abs(r["speedup_serial"] - d["t1_serial_s"] / r["span_s"]) < 1e-6 * r["speedup_serial"], r
    assert abs(c["base"] - r["speedup_serial"]) < 1e-6, c
    assert any("the 1-thread run is not serial" in x for x in r["notes"]), r["notes"]
else:
    assert "speedup_serial" not in r and not any("not serial" in x for x in r["notes"]), r
if expect == "serial":
    assert "t1_busy_cpus" not in d, d["t1_busy_cpus"]
# two threads of work on two CPUs at 1 thread: where other programs left the 1-thread run its
# CPUs, it kept well over one busy. Judged by the other processes' CPU time during it, not by its
# foreign_load: one slot full of base leaves no room for scheduling or foreign_load in its stack
if expect == "parallel" and one["foreign_cpu_s"] == one["foreign_cpu_s"] and one["foreign_cpu_s"] < 0.03 * one["span_s"]:
    assert "t1_busy_cpus" in d and d["t1_busy_cpus"] >= 1.08, d.get("t1_busy_cpus")
    # and the reference is the longer time, closer to what S^ estimates
    assert r["speedup_serial"] > r["speedup_actual"], r
    assert r["error"] <= r["error_raw"] + 1e-9, r
PY
}
cpus=$("$PY" -c 'import os; print(len(os.sched_getaffinity(0)))')
test_expect_success 'a 1-thread run with a helper thread: base is the speedup over its work on one CPU' '
	[ "$cpus" -ge 2 ] || skip "needs 2 CPUs (the helper overlaps the worker)"
	run 0 "$ARCHSCOPE" stack -q -t 1,2 -r 3 --json -- "$EX/stack-helper-thread" "{T}"
	check helper-thread parallel
'
test_expect_success 'a serial 1-thread run is its own reference' '
	run 0 "$ARCHSCOPE" stack -q -t 1,2 -r 1 --json -- "$EX/stack-parallel" "{T}"
	check parallel serial
'
test_expect_success 'pinned to one CPU the helper cannot overlap: no parallel reference' '
	command -v taskset >/dev/null || skip "needs taskset"
	run 0 taskset -c 0 "$ARCHSCOPE" stack -q -t 1,2 -r 1 --json -- "$EX/stack-helper-thread" "{T}"
	check helper-pinned serial
'
test_done
