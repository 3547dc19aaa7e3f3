# stack follows every process a program starts (issue 36 item 1): make -j{T} running one compiler-
# like job per target, a program that forks one process per task and waits for them, and a
# pipeline of processes. Each stack covers the whole tree: the processes are counted, the
# parents' waits for their children are "wait_child" (not a delimiter), the components sum to N,
# and the slots the jobs used (base) or wanted (scheduling, foreign_load) fill most of the bar:
# the false "Ŝ 0.00 / started no threads / ignores {T}" of a stack that kept only the parent's
# record cannot pass. These hold under any load.
. "$(dirname "$0")/lib.sh"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
EX=$(dirname "$ARCHSCOPE")
[ -x "$EX/stack-fork-tasks" ] && [ -x "$EX/stack-pipe-stage" ] || skip "needs the stack examples beside $ARCHSCOPE"
command -v make >/dev/null || skip "needs make (Debian package make)"
check() { # check NAME MIN_PROCESSES: the tree's stack in $TMP/out
	"$PY" - "$TMP/out" "$@" <<'PY' || fail "$1: wrong stack (JSON in $TMP/out)"
import json, sys
name, minp = sys.argv[2], int(sys.argv[3])
r = json.load(open(sys.argv[1]))["results"]["runs"][0]
c, n = r["components"], r["threads"]
used = r["speedup_estimated"] + c["spinning"] + c["scheduling"] + c["foreign_load"]
print(name, "processes", r["processes"], "at once", r["threads_max"], "S^ %.2f S %.2f" % (r["speedup_estimated"], r["speedup_actual"]),
      "used %.2f" % used, {k: round(v, 3) for k, v in c.items()}, r["waiting_for_others_s"], r["notes"])
assert abs(sum(c.values()) - n) < 1e-6, c
assert r["processes"] >= minp, r["processes"]
assert r["threads_max"] >= n, r["threads_max"]
assert not any("started no threads" in x or "ignores {T}" in x or "no record" in x for x in r["notes"]), r["notes"]
assert used >= 0.6 * n, used          # the workers' time is in the stack
assert r["speedup_estimated"] > 0, r["speedup_estimated"]  # the workers' work is base
assert r["waiting_for_others_s"]["wait_child"] > 0, r["waiting_for_others_s"]
PY
}
# make -j{T}: 8 independent jobs of about 60 ms each (a shell, then the job)
cat >"$TMP/Makefile" <<MK
JOBS := j1 j2 j3 j4 j5 j6 j7 j8
all: \$(JOBS)
.PHONY: all \$(JOBS)
\$(JOBS):
	@$EX/stack-fork-tasks 1 600 >/dev/null
MK
test_expect_success 'make -j{T}: every job followed, wait_child not a delimiter, the workers'\'' time in the stack' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- make -s -j{T} -f "$TMP/Makefile"
	check make 10
'
# one process per task, the parent in waitpid
test_expect_success 'one process per task, the parent in waitpid' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- "$EX/stack-fork-tasks" "{T}" 2000
	check fork-tasks 3
'
# a pipeline of {T} stages
cat >"$TMP/pipeline.sh" <<SH
cmd="$EX/stack-pipe-stage 0 \$1 \$2"
i=1
while [ \$i -lt \$1 ]; do cmd="\$cmd | $EX/stack-pipe-stage \$i \$1 \$2"; i=\$((i + 1)); done
eval "\$cmd"
SH
test_expect_success 'a pipeline of {T} stages; the stage waiting for input is blocked_other' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- sh "$TMP/pipeline.sh" "{T}" 2000
	contains "$TMP/out" '\''"processes"'\''
	check pipeline 3
	# the stage waiting for its input is blocked in a read no wrapper sees: blocked_other, never a wait
	# of another name
	json_get "all(v < 0.05 for k, v in d[\"results\"][\"runs\"][0][\"by_primitive\"].items() if k not in (\"blocked_other\",))" | grep -qx True ||
		fail "pipeline: a wait other than blocked_other (JSON in $TMP/out)"
'
test_done
