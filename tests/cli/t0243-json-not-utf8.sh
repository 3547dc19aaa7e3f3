# The JSON emitter writes any byte string as valid JSON (issue 35, item 6): a program argument, a
# path or a parameter name that is not UTF-8 comes out with U+FFFD for each bad byte and a note,
# never "emit: out of memory" and a lost measurement.
. "$(dirname "$0")/lib.sh"
valid() { # FILE KEYPATH WANT: strict UTF-8 JSON whose value at KEYPATH contains WANT
	python3 - "$@" <<'PY' || fail "not valid JSON with $2 holding $3: $(head -c 300 "$1")"
import json, sys
d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))  # strict: no bad bytes
for k in sys.argv[2].split("."):
    d = d[int(k)] if isinstance(d, list) else d[k]
assert sys.argv[3] in json.dumps(d, ensure_ascii=False), d
PY
}
bad=$(printf 'caf\351')
test_expect_success 'stat: a program argument that is not UTF-8' '
	run 0 "$ARCHSCOPE" stat -q --json -r 2 -e task-clock -o "$TMP/stat.json" -- /bin/echo "$bad"
	valid "$TMP/stat.json" results.command "caf�"
'
test_expect_success 'analyze: a path that is not UTF-8' '
	cp "$ROOT/tests/fixtures/kvm-xeon-6-207/caches.csv" "$TMP/$bad.csv"
	run 0 "$ARCHSCOPE" analyze --json --method monotone "$TMP/$bad.csv"
	valid "$TMP/out" results "caf�.csv"
	contains "$TMP/err" "not UTF-8: written as U+FFFD"
'
test_expect_success 'regress: a parameter name that is not UTF-8' '
	run 0 "$ARCHSCOPE" regress -q -o "$TMP/regress.json" --param "$(printf "N\377")=1,2" -r 2 -e task-clock -- sh -c ": {$(printf "N\377")}"
	valid "$TMP/regress.json" results.param "N�"
	! grep -q "out of memory" "$TMP/err" || fail "emit: out of memory"
'
# an invalid byte in a key too (an event name as the key of compare's table is data)
test_expect_success 'compare: a result whose command is not UTF-8' '
	[ -s "$TMP/stat.json" ] || run 0 "$ARCHSCOPE" stat -q --json -r 2 -e task-clock -o "$TMP/stat.json" -- /bin/echo "$bad"
	run 0 "$ARCHSCOPE" compare --json "$TMP/stat.json" "$TMP/stat.json"
	valid "$TMP/out" results "task-clock"
'
test_done
