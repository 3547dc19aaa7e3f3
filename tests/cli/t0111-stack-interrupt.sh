# Interruptions keep data (issue 36 item 5): SIGINT (Ctrl-C) or SIGTERM during `stack` is
# forwarded to the program; the runs already measured are printed (and written with --json, which
# says "interrupted"), the cut run is left out, the exit status is 130 and the temporary directory
# ($TMPDIR/archscope-stack.*, and the records' one, here under $ARCHSCOPE_STACK_RECORDS) is gone. A second SIGINT ends stack at once, even while the program
# ignores the first: the program's whole process group is killed, the directory removed, exit 130.
. "$(dirname "$0")/lib.sh"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
EX=$(dirname "$ARCHSCOPE")
[ -x "$EX/stack-spin-timed" ] || skip "needs the stack examples beside $ARCHSCOPE"
command -v pgrep >/dev/null || skip "needs pgrep (Debian package procps)"
mkdir "$TMP/tmpd" "$TMP/recd"
cp "$EX/stack-spin-timed" "$TMP/worker" # a name of its own, to look for what is left running
# wait_until CMD...: until CMD succeeds (at most 300 s)
wait_until() {
	local i=0
	until "$@"; do
		i=$((i + 1))
		[ $i -lt 3000 ] || fail "'$*' never came true"
		sleep 0.1
	done
}
lines_at_least() { [ -f "$1" ] && [ "$(wc -l <"$1")" -ge "$2" ]; }
left() { # nothing of ours may be left: no directory (of the output or of the records), no program
	ls "$TMP/tmpd" | grep -q . && fail "left behind in \$TMPDIR: $(ls "$TMP/tmpd")"
	ls "$TMP/recd" | grep -q . && fail "left behind in \$ARCHSCOPE_STACK_RECORDS: $(ls "$TMP/recd")"
	if pgrep -f "^$TMP/worker" >/dev/null; then
		fail "the program still runs: $(pgrep -af "^$TMP/worker")"
	fi
	return 0
}
for sig in INT TERM; do
	test_expect_success "SIG$sig: the runs measured are kept, the cut run left out, exit 130, nothing left" '
		# after the first repetition of both N and the second one'\''s 1-thread run (each run appends a
		# line to the log when it ends), a signal
		rm -f "$TMP/log"
		TMPDIR=$TMP/tmpd ARCHSCOPE_STACK_RECORDS=$TMP/recd "$ARCHSCOPE" stack -t 1,2 -r 3 --json -- "$TMP/worker" "{T}" 1500 work "$TMP/log" >"$TMP/out" 2>"$TMP/err" &
		pid=$!
		wait_until lines_at_least "$TMP/log" 3
		kill -$sig $pid
		wait $pid
		rc=$?
		[ $rc -eq 130 ] || { cat "$TMP/err" >&2; fail "SIG$sig: exit $rc, 130 expected"; }
		contains "$TMP/err" "interrupted"
		"$PY" - "$TMP/out" $sig <<-\PY || fail "SIG$sig: the runs measured are not in the JSON ($TMP/out)"
		import json, sys
		res = json.load(open(sys.argv[1]))["results"]
		runs = res["runs"]
		print(sys.argv[2], "interrupted:", res["interrupted"], [(r["threads"], r["repetitions"]) for r in runs])
		assert res["interrupted"]
		assert [r["threads"] for r in runs] == [1, 2], runs
		assert all(1 <= r["repetitions"] <= 2 for r in runs), runs   # the cut run is not among them
		assert all(abs(sum(r["components"].values()) - r["threads"]) < 1e-6 for r in runs)
		assert res["t1_s"] > 0
		PY
		left
	'
done
# a program that ignores SIGINT: the first one is forwarded and ignored, the second ends stack
test_expect_success 'a second SIGINT ends stack at once while the program ignores the first; nothing left' '
	TMPDIR=$TMP/tmpd ARCHSCOPE_STACK_RECORDS=$TMP/recd "$ARCHSCOPE" stack -t 2 -r 3 -- sh -c "trap '\'''\'' INT; exec $TMP/worker \"\$0\" 200000 work $TMP/log2" "{T}" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	wait_until pgrep -f "^$TMP/worker" >/dev/null
	sleep 0.5
	kill -INT $pid
	sleep 0.5
	kill -0 $pid 2>/dev/null || fail "stack ended at the first SIGINT although the program ignored it"
	t0=$(date +%s)
	kill -INT $pid
	wait $pid
	rc=$?
	t1=$(date +%s)
	[ $rc -eq 130 ] || { cat "$TMP/err" >&2; fail "second SIGINT: exit $rc, 130 expected"; }
	[ $((t1 - t0)) -le 5 ] || fail "second SIGINT: stack took $((t1 - t0)) s to end"
	sleep 0.2
	left
'
# a records directory that cannot be made is a clear error, before any run, and nothing is left
test_expect_success 'a records directory that cannot be made: a clear error before any run, nothing left' '
	run 2 env TMPDIR="$TMP/tmpd" ARCHSCOPE_STACK_RECORDS="$TMP/none" "$ARCHSCOPE" stack -t 2 -r 1 -- "$TMP/worker" "{T}" 10 work "$TMP/log3"
	contains "$TMP/err" "ARCHSCOPE_STACK_RECORDS"
	[ ! -e "$TMP/log3" ] || fail "the program ran although the records had nowhere to go"
	left
'
test_done
