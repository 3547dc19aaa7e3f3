# regress and phases follow stat's signal policy (issue 35): SIGINT or SIGTERM to archscope alone goes
# to the program's process group; regress fits only the runs that completed (the cut run is never a
# point), phases analyses what was sampled until the program ended; both mark the result interrupted,
# leave -o as it was and exit 130.
. "$(dirname "$0")/lib.sh"
wait_for() {
	local i
	for i in $(seq 200); do
		[ "$(wc -l <"$1" 2>/dev/null || echo 0)" -ge "$2" ] && return 0
		sleep 0.1
	done
	fail "timed out waiting for $2 lines in $1"
}
test_expect_success 'regress after SIGTERM: only the completed runs are points, marked interrupted, exit 130' '
	mark=$TMP/mark-regress
	: >"$mark"
	# values 1 and 2 run twice each (quickly); value 3'\''s first run sleeps and is cut
	"$ARCHSCOPE" regress -q --json --param N=1,2,3 -r 2 -e task-clock -- \
		sh -c "echo {N} >>\"$mark\"; [ {N} -lt 3 ] || sleep 30 # mark0222r" >/dev/null 2>"$TMP/err" &
	pid=$!
	wait_for "$mark" 5
	sleep 0.3
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	[ "$rc" -eq 130 ] || { cat "$TMP/err" >&2; fail "regress: exit $rc, expected 130"; }
	! pgrep -f mark0222r >/dev/null || fail "regress: the program still runs"
	sed -n "/^{/,\$p" "$TMP/err" >"$TMP/res.json"
	python3 - "$TMP/res.json" <<-\PY || fail "regress: the interrupted result"
	import json, sys
	d = json.load(open(sys.argv[1]))["results"]
	assert d["interrupted"] is True
	tc = next(e for e in d["events"] if e["name"] == "task-clock")
	xs = sorted(p[0] for p in tc["points"])
	assert xs == [1, 1, 2, 2], xs  # the cut run at N=3 is not a point of the fit
	PY
'
# phases: the program ends on SIGINT; what was sampled is analysed
test_expect_success 'phases after SIGINT: what was sampled is analysed, -o kept, exit 130' '
	mark=$TMP/mark-phases
	: >"$mark"
	echo old >"$TMP/keep.json"
	"$ARCHSCOPE" phases -q --interval 5 --segments 1 -e task-clock -o "$TMP/keep.json" -- \
		sh -c "echo s >>\"$mark\"; sleep 30 # mark0222p" >/dev/null 2>"$TMP/err" &
	pid=$!
	wait_for "$mark" 1
	sleep 0.5
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	[ "$rc" -eq 130 ] || { cat "$TMP/err" >&2; fail "phases: exit $rc, expected 130"; }
	! pgrep -f mark0222p >/dev/null || fail "phases: the program still runs"
	[ "$(cat "$TMP/keep.json")" = old ] || fail "phases: -o was replaced by an interrupted result"
	contains "$TMP/err" "interrupted  *by Interrupt"
	contains "$TMP/err" "ended by signal"
'
test_done
