# What is wrong with the options is said before anything runs (issue 35): an output stat, regress,
# phases or compare cannot write (-o /dev/full, a directory, a missing directory; an unusable --plot
# DIR); a repeated parameter value, a repeated or empty event; a stat result with a key or an event
# given twice. Each exits 2 with a message naming the thing, and the program never ran.
. "$(dirname "$0")/lib.sh"
ran=$TMP/ran
check_not_run() { [ -e "$ran" ] && fail "$1: the program ran before the error"; return 0; }

run 2 "$ARCHSCOPE" stat -q -e task-clock -o /dev/full -- sh -c "echo x >>$ran"
contains "$TMP/err" "/dev/full"
check_not_run "stat -o /dev/full"
run 2 "$ARCHSCOPE" stat -q -e task-clock -o "$TMP" -- sh -c "echo x >>$ran"
contains "$TMP/err" "$TMP"
check_not_run "stat -o DIR"
run 2 "$ARCHSCOPE" stat -q -e task-clock -o "$TMP/no/such/dir/r.json" -- sh -c "echo x >>$ran"
contains "$TMP/err" "no/such/dir"
check_not_run "stat -o in a missing directory"
run 2 "$ARCHSCOPE" stat -q -x, -e task-clock -o /dev/full -- sh -c "echo x >>$ran"
check_not_run "stat -x -o /dev/full"
run 2 "$ARCHSCOPE" regress -q --param N=1,2 -e task-clock -o /dev/full -- sh -c "echo {N} >>$ran"
check_not_run "regress -o /dev/full"
touch "$TMP/afile"
run 2 "$ARCHSCOPE" regress -q --param N=1,2 -e task-clock --plot "$TMP/afile/plots" -- sh -c "echo {N} >>$ran"
contains "$TMP/err" "afile"
check_not_run "regress --plot under a file"
run 2 "$ARCHSCOPE" phases -q -e task-clock --plot "$TMP/afile" -- sh -c "echo x >>$ran; sleep 0.2"
contains "$TMP/err" "--plot"
check_not_run "phases --plot on a file"
run 2 "$ARCHSCOPE" phases -q -e task-clock -o /dev/full -- sh -c "echo x >>$ran; sleep 0.2"
check_not_run "phases -o /dev/full"
run 2 "$ARCHSCOPE" compare -q -r 2 -e task-clock -o /dev/full -- sh -c "echo x >>$ran" -- true
check_not_run "compare -r -o /dev/full"

# repeated parameter values: a singular fit, refused
run 2 "$ARCHSCOPE" regress -q --param N=1,1,1 -e task-clock -- sh -c "echo {N} >>$ran"
contains "$TMP/err" "the value 1 is given twice"
run 2 "$ARCHSCOPE" regress -q --param N=1,2,2.0 -e task-clock -- sh -c "echo {N} >>$ran"
contains "$TMP/err" "given twice ('2' and '2.0')"
check_not_run "regress --param N=1,1,1"
# repeated and empty events
run 2 "$ARCHSCOPE" stat -q -e task-clock,task-clock -- sh -c "echo x >>$ran"
contains "$TMP/err" "event 'task-clock' is given twice"
run 2 "$ARCHSCOPE" stat -q -e page-faults -e faults -- sh -c "echo x >>$ran"
contains "$TMP/err" "'page-faults' and 'faults' are the same event"
run 2 "$ARCHSCOPE" stat -q -e '' -- sh -c "echo x >>$ran"
contains "$TMP/err" "empty event name"
run 2 "$ARCHSCOPE" stat -q -e 'task-clock,,page-faults' -- sh -c "echo x >>$ran"
contains "$TMP/err" "empty event name"
run 2 "$ARCHSCOPE" regress -q --param N=1,2 -e cs,context-switches -- sh -c "echo {N} >>$ran"
contains "$TMP/err" "same event"
check_not_run "repeated or empty events"
F="$ROOT/tests/fixtures/measure"
run 2 "$ARCHSCOPE" compare -e shift-10pct,shift-10pct "$F/compare-a.json" "$F/compare-b.json"
contains "$TMP/err" "given twice"
run 2 "$ARCHSCOPE" compare -e '' "$F/compare-a.json" "$F/compare-b.json"
contains "$TMP/err" "empty event name"
# a stat result with a key or an event twice: the last one does not win silently
echo '{"results":{"events":[{"name":"x","values":[1,2,3],"values":[4,5,6]}]}}' >"$TMP/dupkey.json"
run 2 "$ARCHSCOPE" compare "$TMP/dupkey.json" "$F/compare-b.json"
contains "$TMP/err" "duplicate object key"
contains "$TMP/err" "dupkey.json"
echo '{"results":{"events":[{"name":"x","values":[1,2,3]},{"name":"y","values":[1]},{"name":"x","values":[4,5,6]}]}}' >"$TMP/dupev.json"
run 2 "$ARCHSCOPE" compare "$F/compare-a.json" "$TMP/dupev.json"
contains "$TMP/err" "results.events\[0\] and \[2\] are both named 'x'"
exit 0
