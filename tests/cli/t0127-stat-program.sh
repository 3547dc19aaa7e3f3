# stat reports the program's exit status and a crash (and still prints what it measured), writes
# -o atomically, and rejects a missing program or conflicting options.
. "$(dirname "$0")/lib.sh"
# exit status and crash are reported, and the measurement is still printed
run 1 "$ARCHSCOPE" stat -q -r 2 -e page-faults -- sh -c 'exit 3'
contains "$TMP/err" "exited with status 3"
contains "$TMP/err" "page-faults"
run 1 "$ARCHSCOPE" stat -q -r 1 --json -o "$TMP/j.json" -e page-faults -- sh -c 'kill -SEGV $$'
contains "$TMP/err" "crashed"
cp "$TMP/j.json" "$TMP/out"
json_get "d['results']['runs_detail'][0]['signal']" | grep -qx 11 || fail "signal not recorded"

# -o writes the same JSON atomically
run 0 "$ARCHSCOPE" stat -q -r 2 -e page-faults -o "$TMP/a.json" -- true
python3 -c "import json; d=json.load(open('$TMP/a.json')); assert d['command']=='stat' and d['results']['events'][0]['n']==2" ||
	fail "-o file"

run 2 "$ARCHSCOPE" stat -q -- /nonexistent/prog
contains "$TMP/err" "cannot run"
run 2 "$ARCHSCOPE" stat
run 2 "$ARCHSCOPE" stat -e page-faults --all -- true
exit 0
