# stat reports the program's exit status and a crash (and still prints what it measured), writes
# -o atomically, and rejects a missing program or conflicting options.
. "$(dirname "$0")/lib.sh"
# exit status and crash are reported, and the measurement is still printed
test_expect_success 'a program'"'"'s exit status is reported, the measurement still printed' '
	run 1 "$ARCHSCOPE" stat -q -r 2 -e page-faults -- sh -c "exit 3"
	contains "$TMP/err" "exited with status 3"
	contains "$TMP/err" "page-faults"
'
test_expect_success 'a crash is reported and its signal recorded' '
	run 1 "$ARCHSCOPE" stat -q -r 1 --json -o "$TMP/j.json" -e page-faults -- sh -c '"'"'kill -SEGV $$'"'"'
	contains "$TMP/err" "crashed"
	json_get "d[\"results\"][\"runs_detail\"][0][\"signal\"]" "$TMP/j.json" | grep -qx 11 || fail "signal not recorded"
'
# -o writes the same JSON atomically
test_expect_success '-o writes the JSON' '
	run 0 "$ARCHSCOPE" stat -q -r 2 -e page-faults -o "$TMP/a.json" -- true
	json_get "d[\"command\"] == \"stat\" and d[\"results\"][\"events\"][0][\"n\"] == 2" "$TMP/a.json" | grep -qx True ||
		fail "-o file"
'
test_expect_success 'a program that cannot run' '
	run 2 "$ARCHSCOPE" stat -q -- /nonexistent/prog
	contains "$TMP/err" "cannot run"
'
test_expect_success 'no program, conflicting -e and --all' '
	run 2 "$ARCHSCOPE" stat
	run 2 "$ARCHSCOPE" stat -e page-faults --all -- true
'
test_done
