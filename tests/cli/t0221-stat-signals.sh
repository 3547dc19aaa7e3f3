# One signal policy for stat (issue 35, common/interrupt.h): SIGINT or SIGTERM to archscope alone (kill,
# as well as Ctrl-C) goes to the program's process group and archscope waits for it; the runs done are
# reported and marked interrupted, the cut run never enters the statistics, the exit status is 130,
# -o is never replaced by an interrupted result and no temporary file is left; a second signal ends
# archscope at once, and the program with it. The program sleeps; the test signals it.
. "$(dirname "$0")/lib.sh"
# wait_for FILE LINES: until FILE has LINES lines (at most 20 s)
wait_for() {
	local i
	for i in $(seq 200); do
		[ "$(wc -l <"$1" 2>/dev/null || echo 0)" -ge "$2" ] && return 0
		sleep 0.1
	done
	fail "timed out waiting for $2 lines in $1"
}
# no_process PATTERN: nothing left running whose command line holds PATTERN (after a short grace)
no_process() {
	local i
	for i in $(seq 50); do
		pgrep -f -- "$1" >/dev/null || return 0
		sleep 0.1
	done
	fail "a process '$1' is still running"
}
mark=$TMP/mark
# interrupted_stat SIG: stat -r 5 -o, its third run cut by SIG
interrupted_stat() {
	local sig=$1 pid rc
	echo old >"$TMP/keep.json"
	: >"$mark"
	# each run writes a line when it starts, then sleeps; the third run is cut
	"$ARCHSCOPE" stat -q -r 5 -e task-clock --json -o "$TMP/keep.json" -- \
		sh -c "echo started >>'$mark'; sleep 2 # t0221-$sig" >/dev/null 2>"$TMP/err" &
	pid=$!
	wait_for "$mark" 3
	sleep 0.3
	kill -s "$sig" "$pid"
	wait "$pid"
	rc=$?
	[ "$rc" -eq 130 ] || { cat "$TMP/err" >&2; fail "SIG$sig: exit $rc, expected 130"; }
	no_process "t0221-$sig"
	[ "$(cat "$TMP/keep.json")" = old ] || fail "SIG$sig: -o was replaced by an interrupted result"
	! ls "$TMP" | grep -q 'keep.json.' || fail "SIG$sig: a temporary file was left beside -o: $(ls "$TMP")"
	contains "$TMP/err" "is left as it was"
	# the JSON of the interrupted result follows on stderr
	sed -n '/^{/,$p' "$TMP/err" >"$TMP/res.json"
	python3 - "$TMP/res.json" "$sig" <<'PY' || fail "SIG$sig: the interrupted result"
import json, sys
d = json.load(open(sys.argv[1]))["results"]
assert d["interrupted"] is True, d["interrupted"]
assert d["runs_done"] == 2, d["runs_done"]  # runs 1 and 2 completed; run 3 was cut
tc = next(e for e in d["events"] if e["name"] == "task-clock")
assert tc["n"] == 2 and tc["values"][2] is None, tc["values"]  # the cut run is not in the statistics
wall = next(e for e in d["events"] if e["name"] == "wall-time")
assert wall["n"] == 2 and all(v > 1.9e9 for v in wall["values"][:2]), wall["values"]
assert len(d["runs_detail"]) == 2 and all(r["exited"] and r["exit_status"] == 0 for r in d["runs_detail"])
PY
}
test_expect_success 'SIGINT: the runs done reported, the cut run left out, exit 130, -o kept, no temporary file' '
	interrupted_stat INT
'
test_expect_success 'SIGTERM: the runs done reported, the cut run left out, exit 130, -o kept, no temporary file' '
	interrupted_stat TERM
'
# text: the interrupted line, and the runs done
test_expect_success 'text: the interrupted line and the runs done' '
	: >"$mark"
	"$ARCHSCOPE" stat -q -r 3 -e task-clock -- sh -c "echo s >>\"$mark\"; sleep 2 # t0221-text" >/dev/null 2>"$TMP/err" &
	pid=$!
	wait_for "$mark" 2
	sleep 0.3
	kill -INT "$pid"
	wait "$pid"
	[ $? -eq 130 ] || fail "text: exit not 130"
	contains "$TMP/err" "interrupted  *by Interrupt after 1 of 3 runs: the cut run is left out"
	no_process "t0221-text"
'
# a second signal ends archscope at once, and the program (which ignores SIGINT) with it
test_expect_success 'a second SIGINT ends archscope at once, and the program that ignores SIGINT' '
	: >"$mark"
	start=$(date +%s)
	"$ARCHSCOPE" stat -q -r 1 -e task-clock -- sh -c "trap \"\" INT; echo s >>\"$mark\"; sleep 30 # t0221-twice" >/dev/null 2>"$TMP/err" &
	pid=$!
	wait_for "$mark" 1
	kill -INT "$pid"
	sleep 0.5
	kill -0 "$pid" 2>/dev/null || fail "the first SIGINT ended archscope although the program ignores it"
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	[ "$rc" -eq 130 ] || fail "second SIGINT: exit $rc, expected 130"
	[ $(($(date +%s) - start)) -lt 20 ] || fail "the second SIGINT did not end archscope at once"
	no_process "t0221-twice"
'
test_done
