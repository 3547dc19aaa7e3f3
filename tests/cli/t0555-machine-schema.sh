#!/usr/bin/env bash
# machine schema (issue 48): the described result types are listed with their keys, and --check
# holds a saved document to its description: every key described and of its kind, the first
# difference named by its path; every document's machine block is the described host block.
. "$ROOT/tests/cli/lib.sh"

test_expect_success 'the list names every described type, each with its keys' '
	run 0 "$ARCHSCOPE" machine schema --json
	json_get "[s[\"name\"] for s in d[\"results\"][\"schemas\"]]" | grep -q conditions || fail "conditions not listed"
	json_get "\"\\n\".join(s[\"name\"] for s in d[\"results\"][\"schemas\"])" >"$TMP/names"
	while IFS= read -r name; do
		run 0 "$ARCHSCOPE" machine schema --json "$name"
		test "$(json_get "len(d[\"results\"][\"keys\"]) > 0")" = True || fail "$name has no keys"
	done <"$TMP/names"
'

test_expect_success 'a key is listed with its path, kind and unit' '
	run 0 "$ARCHSCOPE" machine schema --json conditions
	test "$(json_get "[k[\"unit\"] for k in d[\"results\"][\"keys\"] if k[\"path\"] == \"wall_s\"][0]")" = s || fail "wall_s unit"
	test "$(json_get "[k[\"kind\"] for k in d[\"results\"][\"keys\"] if k[\"path\"] == \"noisy\"][0]")" = "true or false" || fail "noisy kind"
'

test_expect_success 'an unknown name is a usage error that lists the names' '
	run 2 "$ARCHSCOPE" machine schema nosuch
	contains "$TMP/err" "no described result .nosuch. (conditions"
'

test_expect_success 'the machine block of a document is the described host block' '
	run 0 "$ARCHSCOPE" topology --json
	cp "$TMP/out" "$TMP/topo.json"
	python3 -c "import json,sys; json.dump(json.load(open(sys.argv[1]))[\"machine\"], open(sys.argv[2], \"w\"))" \
		"$TMP/topo.json" "$TMP/host.json"
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/host.json" host
	contains "$TMP/out" "host results as described"
'

test_expect_success '--check names the first difference by its path (exit 1)' '
	printf "{\"wall_s\": \"long\", \"cpus\": 1}\n" >"$TMP/c.json"
	run 1 "$ARCHSCOPE" machine schema --check "$TMP/c.json" conditions
	contains "$TMP/err" "wall_s: a value where a number is described"
	printf "{\"results\": {}, \"machine\": {}}\n" >"$TMP/d.json"
	run 1 "$ARCHSCOPE" machine schema --check "$TMP/d.json" conditions
	contains "$TMP/err" "missing"
'

test_expect_success '--check of a file that is not JSON is exit 2' '
	printf "not json\n" >"$TMP/bad.json"
	run 2 "$ARCHSCOPE" machine schema --check "$TMP/bad.json" conditions
	contains "$TMP/err" "not JSON"
	run 2 "$ARCHSCOPE" machine schema --check "$TMP/bad.json"
'

test_expect_success 'machine show, diff, answers and schema write what their description says' '
	m1=$ROOT/machines/amd-zen5-26-2.yaml m2=$ROOT/machines/kvm-xeon-6-207.yaml
	for args in "answers" "schema" "schema conditions" "show $m1" "diff $m1 $m2"; do
		# shellcheck disable=SC2086 # args are words
		"$ARCHSCOPE" machine $args --json >"$TMP/doc.json" || test $? -eq 1 || fail "machine $args"
		run 0 "$ARCHSCOPE" machine schema --check "$TMP/doc.json" machine
	done
'

test_expect_success 'probe --plan and report write what their descriptions say' '
	"$ARCHSCOPE" probe --plan --json >"$TMP/plan.json" || fail "probe --plan"
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/plan.json" "probe --plan"
	for x in "$ROOT"/tests/fixtures/topo/*.xml; do
		HWLOC_XMLFILE=$x "$ARCHSCOPE" probe --plan --json >"$TMP/plan.json" 2>/dev/null || fail "probe --plan on $x"
		run 0 "$ARCHSCOPE" machine schema --check "$TMP/plan.json" "probe --plan"
	done
	"$ARCHSCOPE" report -q -o "$TMP/r.html" --from "$ROOT/tests/fixtures/report/topology.json" --json >"$TMP/rep.json" ||
		fail "report"
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/rep.json" report
'

# Every emit call that writes a JSON key (report/emit.h: the second argument is the key) in cli/
# takes it from a description, never a string literal: a renderer that spells a key fails here.
test_expect_success 'no renderer in src/cli spells a results key' '
	grep -rnE "\\bemit_(object_begin|list_begin|array_begin|table_begin|int|number|size|string|bool|null|cpulist|json|stat|answer|answer_begin)\\([a-z_>.-]+, \"" \
		"$ROOT/src/cli" >"$TMP/spelt" && fail "keys spelt in cli/: $(head -n 5 "$TMP/spelt")"
	true
'

test_done
