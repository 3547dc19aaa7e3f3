# stack's results are what their description says (machine/result-stack.h, issue 48 item 1): a tiny
# run's --json is checked against it by `machine schema --check`, and a result that breaks it is
# refused with the path of the difference.
. "$(dirname "$0")/lib.sh"

"$ARCHSCOPE" stack -q --json -t 1,2 -r 1 -- true >"$TMP/stack.json" 2>"$TMP/stack.err" ||
	fail "stack -t 1,2 -r 1 -- true failed: $(cat "$TMP/stack.err")"

test_expect_success 'a tiny run (-t 1,2 -r 1 -- true) is what the description says' '
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/stack.json" stack &&
	contains "$TMP/out" "stack results as described"
'

test_expect_success 'both thread counts are rows, each with its components and conditions' '
	cp "$TMP/stack.json" "$TMP/out" &&
	test "$(json_get "[r[\"threads\"] for r in d[\"results\"][\"runs\"]]")" = "[1, 2]" ||
		fail "runs[].threads is not [1, 2]"
	test "$(json_get "sorted(d[\"results\"][\"runs\"][1][\"components\"])[0]")" = base ||
		fail "no base in runs[1].components"
	test "$(json_get "len(d[\"results\"][\"runs\"][1][\"conditions_per_run\"])")" = 1 ||
		fail "not one conditions_per_run row for -r 1"
'

test_expect_success 'a key the description does not name is refused, by its path' '
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d[\"results\"][\"runs\"][1][\"bogus_s\"]=1; json.dump(d,open(sys.argv[2],\"w\"))" \
		"$TMP/stack.json" "$TMP/bad.json" &&
	run 1 "$ARCHSCOPE" machine schema --check "$TMP/bad.json" stack &&
	contains "$TMP/err" "runs\[1\].bogus_s"
'

test_expect_success 'a component that is not a number is refused, by its path' '
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d[\"results\"][\"runs\"][0][\"components\"][\"base\"]=\"1\"; json.dump(d,open(sys.argv[2],\"w\"))" \
		"$TMP/stack.json" "$TMP/bad.json" &&
	run 1 "$ARCHSCOPE" machine schema --check "$TMP/bad.json" stack &&
	contains "$TMP/err" "runs\[0\].components"
'

test_done
