# What is wrong with the options is said before anything runs (issue 35): an output stat, regress,
# phases or compare cannot write (-o /dev/full, a directory, a missing directory; an unusable --plot
# DIR); a repeated parameter value, a repeated or empty event; a stat result with a key or an event
# given twice. Each exits 2 with a message naming the thing, and the program never ran.
. "$(dirname "$0")/lib.sh"
ran=$TMP/ran # each program below makes it
not_run() { [ ! -e "$ran" ] || fail "the program ran before the error"; }
# refused WHAT CODE: a case that starts without $ran, whatever the case before it did
refused() { rm -f "$ran"; test_expect_success "$@"; }
touch "$TMP/afile"
F="$ROOT/tests/fixtures/measure"

refused 'stat -o /dev/full' '
	run 2 "$ARCHSCOPE" stat -q -e task-clock -o /dev/full -- sh -c "echo x >>$ran"
	contains "$TMP/err" "/dev/full"
	not_run
'
refused 'stat -o DIR' '
	run 2 "$ARCHSCOPE" stat -q -e task-clock -o "$TMP" -- sh -c "echo x >>$ran"
	contains "$TMP/err" "$TMP"
	not_run
'
refused 'stat -o in a missing directory' '
	run 2 "$ARCHSCOPE" stat -q -e task-clock -o "$TMP/no/such/dir/r.json" -- sh -c "echo x >>$ran"
	contains "$TMP/err" "no/such/dir"
	not_run
'
refused 'stat -x -o /dev/full' '
	run 2 "$ARCHSCOPE" stat -q -x, -e task-clock -o /dev/full -- sh -c "echo x >>$ran"
	contains "$TMP/err" "/dev/full"
	not_run
'
refused 'regress -o /dev/full' '
	run 2 "$ARCHSCOPE" regress -q --param N=1,2 -e task-clock -o /dev/full -- sh -c "echo {N} >>$ran"
	contains "$TMP/err" "/dev/full"
	not_run
'
refused 'regress --plot under a file' '
	run 2 "$ARCHSCOPE" regress -q --param N=1,2 -e task-clock --plot "$TMP/afile/plots" -- sh -c "echo {N} >>$ran"
	contains "$TMP/err" "afile"
	not_run
'
refused 'phases --plot on a file' '
	run 2 "$ARCHSCOPE" phases -q -e task-clock --plot "$TMP/afile" -- sh -c "echo x >>$ran; sleep 0.2"
	contains "$TMP/err" "--plot"
	not_run
'
refused 'phases -o /dev/full' '
	run 2 "$ARCHSCOPE" phases -q -e task-clock -o /dev/full -- sh -c "echo x >>$ran; sleep 0.2"
	contains "$TMP/err" "/dev/full"
	not_run
'
refused 'compare -r -o /dev/full' '
	run 2 "$ARCHSCOPE" compare -q -r 2 -e task-clock -o /dev/full -- sh -c "echo x >>$ran" -- true
	contains "$TMP/err" "/dev/full"
	not_run
'
# repeated parameter values: a singular fit, refused
refused 'regress --param N=1,1,1' '
	run 2 "$ARCHSCOPE" regress -q --param N=1,1,1 -e task-clock -- sh -c "echo {N} >>$ran"
	contains "$TMP/err" "the value 1 is given twice"
	not_run
'
refused 'regress --param N=1,2,2.0' '
	run 2 "$ARCHSCOPE" regress -q --param N=1,2,2.0 -e task-clock -- sh -c "echo {N} >>$ran"
	contains "$TMP/err" "given twice ('\''2'\'' and '\''2.0'\'')"
	not_run
'
# repeated and empty events
refused 'stat -e task-clock,task-clock' '
	run 2 "$ARCHSCOPE" stat -q -e task-clock,task-clock -- sh -c "echo x >>$ran"
	contains "$TMP/err" "event '\''task-clock'\'' is given twice"
	not_run
'
refused 'stat -e page-faults -e faults (the same event)' '
	run 2 "$ARCHSCOPE" stat -q -e page-faults -e faults -- sh -c "echo x >>$ran"
	contains "$TMP/err" "'\''page-faults'\'' and '\''faults'\'' are the same event"
	not_run
'
refused 'stat -e "" (an empty event)' '
	run 2 "$ARCHSCOPE" stat -q -e "" -- sh -c "echo x >>$ran"
	contains "$TMP/err" "empty event name"
	not_run
'
refused 'stat -e task-clock,,page-faults' '
	run 2 "$ARCHSCOPE" stat -q -e "task-clock,,page-faults" -- sh -c "echo x >>$ran"
	contains "$TMP/err" "empty event name"
	not_run
'
refused 'regress -e cs,context-switches' '
	run 2 "$ARCHSCOPE" regress -q --param N=1,2 -e cs,context-switches -- sh -c "echo {N} >>$ran"
	contains "$TMP/err" "same event"
	not_run
'
test_expect_success 'compare -e with an event twice' '
	run 2 "$ARCHSCOPE" compare -e shift-10pct,shift-10pct "$F/compare-a.json" "$F/compare-b.json"
	contains "$TMP/err" "given twice"
'
test_expect_success 'compare -e "" (an empty event)' '
	run 2 "$ARCHSCOPE" compare -e "" "$F/compare-a.json" "$F/compare-b.json"
	contains "$TMP/err" "empty event name"
'
# a stat result with a key or an event twice: the last one does not win silently
test_expect_success 'compare: a stat result with a key twice' '
	echo "{\"results\":{\"events\":[{\"name\":\"x\",\"values\":[1,2,3],\"values\":[4,5,6]}]}}" >"$TMP/dupkey.json"
	run 2 "$ARCHSCOPE" compare "$TMP/dupkey.json" "$F/compare-b.json"
	contains "$TMP/err" "duplicate object key"
	contains "$TMP/err" "dupkey.json"
'
test_expect_success 'compare: a stat result with an event twice' '
	echo "{\"results\":{\"events\":[{\"name\":\"x\",\"values\":[1,2,3]},{\"name\":\"y\",\"values\":[1]},{\"name\":\"x\",\"values\":[4,5,6]}]}}" >"$TMP/dupev.json"
	run 2 "$ARCHSCOPE" compare "$F/compare-a.json" "$TMP/dupev.json"
	contains "$TMP/err" "results.events\[0\] and \[2\] are both named '\''x'\''"
'
test_done
