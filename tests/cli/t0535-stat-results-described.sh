# Every key stat, regress, phases, memhist, events and compare write with --json is described, with its kind, and
# every key their description requires is written (machine/result-stat*.h, checked by machine
# schema --check); a stat result round-trips through compare's reader, which names the path of a
# key a file holds wrongly (issue 48).
. "$(dirname "$0")/lib.sh"
# described NAME FILE: FILE's results are what the description NAME says (machine schema --check:
# every key described and of its kind, every key not optional written), and its command is NAME's.
described() {
	cp "$2" "$TMP/described.json" &&
		"$ARCHSCOPE" machine schema --check "$TMP/described.json" "$1" >/dev/null &&
		test "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[\"command\"])" "$TMP/described.json")" = "${1%% *}"
}

test_expect_success 'stat --json: every key described, and read back by compare' '
	run 0 "$ARCHSCOPE" stat -q -r 2 --json -o "$TMP/a.json" -- true &&
	described stat "$TMP/a.json" &&
	run 0 "$ARCHSCOPE" compare -q --json "$TMP/a.json" "$TMP/a.json" &&
	described compare "$TMP/out"
'
test_expect_success 'stat --per-thread and -I: threads and intervals described' '
	run 0 "$ARCHSCOPE" stat -q -r 2 --per-thread -e task-clock,page-faults -o "$TMP/t.json" -- sh -c true &&
	described stat "$TMP/t.json" &&
	run 0 "$ARCHSCOPE" stat -q -I 5 -e task-clock --json -o "$TMP/i.json" -- sleep 0.02 &&
	described stat "$TMP/i.json" &&
	run 0 "$ARCHSCOPE" compare -q "$TMP/t.json" "$TMP/i.json"
'
test_expect_success 'regress --json: every key described' '
	run 0 "$ARCHSCOPE" regress -q --param N=1,2,3 -r 2 -e task-clock -o "$TMP/r.json" -- sh -c "true {N}" &&
	described regress "$TMP/r.json"
'
test_expect_success 'phases --json: every key described' '
	run 0 "$ARCHSCOPE" phases -q --interval 5 -o "$TMP/p.json" -- sleep 0.3 &&
	described phases "$TMP/p.json"
'
test_expect_success 'memhist --json: every key described' '
	run 0 "$ARCHSCOPE" memhist --json --from "$ROOT/tests/fixtures/measure/memhist-amd.jsonl" &&
	described memhist "$TMP/out" &&
	run 0 "$ARCHSCOPE" memhist --json --mode cost --from "$ROOT/tests/fixtures/measure/memhist-intel.jsonl" &&
	described memhist "$TMP/out"
'
test_expect_success 'events --json: every key described' '
	run 0 "$ARCHSCOPE" events --json &&
	described events "$TMP/out"
'
test_expect_success 'compare -r --json: every key described' '
	run 0 "$ARCHSCOPE" compare -q -r 2 -e page-faults -o "$TMP/c.json" -- true -- true &&
	described compare "$TMP/c.json"
'
test_expect_success 'compare names the path of a key a stat result holds wrongly (exit 2)' '
	run 0 "$ARCHSCOPE" stat -q -r 2 -e task-clock -o "$TMP/a.json" -- true &&
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); d[\"results\"][\"runs_detail\"][1][\"conditions\"][\"cpus\"] = \"x\"; json.dump(d, open(sys.argv[2], \"w\"))" "$TMP/a.json" "$TMP/bad.json" &&
	run 2 "$ARCHSCOPE" compare "$TMP/a.json" "$TMP/bad.json" &&
	contains "$TMP/err" "bad.json.: results.runs_detail\[1\].conditions.cpus: a value where an integer is described" &&
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); d[\"results\"][\"speed\"] = 1; json.dump(d, open(sys.argv[2], \"w\"))" "$TMP/a.json" "$TMP/extra.json" &&
	run 2 "$ARCHSCOPE" compare "$TMP/extra.json" "$TMP/a.json" &&
	contains "$TMP/err" "results.speed: a key the description does not name"
'
test_done
