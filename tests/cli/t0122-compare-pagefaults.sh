# The issue's "Done when" on a live program: page faults of programs touching 1 MB and 12 MB
# differ with q < 0.01; two batches of the same command flag nothing among the deterministic
# events (page faults: a few faults of noise on thousands, far below compare's 1 % minimum).
. "$(dirname "$0")/lib.sh"
command -v perl >/dev/null || skip "needs perl"
small='$x = "a" x 1000000'
big='$x = "a" x 12000000'
run 0 "$ARCHSCOPE" stat -q -r 5 -e page-faults -o "$TMP/a.json" -- perl -e "$small"
run 0 "$ARCHSCOPE" stat -q -r 5 -e page-faults -o "$TMP/b.json" -- perl -e "$big"
run 0 "$ARCHSCOPE" stat -q -r 5 -e page-faults -o "$TMP/a2.json" -- perl -e "$small"
test_expect_success '1 MB against 12 MB: page faults flagged with q < 0.01' '
	run 0 "$ARCHSCOPE" compare --json -e page-faults,rusage:minor-faults "$TMP/a.json" "$TMP/b.json"
	python3 - "$TMP/out" <<-\PY || fail "1 MB against 12 MB not flagged with q < 0.01"
	import json, sys
	ev = {e["name"]: e for e in json.load(open(sys.argv[1]))["results"]["events"]}
	pf = ev["page-faults"]
	assert pf["significant"] and pf["q"] < 0.01 and pf["ratio"] > 3, pf
	PY
'
test_expect_success 'two batches of one command: nothing flagged' '
	run 0 "$ARCHSCOPE" compare --json -e page-faults,rusage:minor-faults "$TMP/a.json" "$TMP/a2.json"
	json_get "[e[\"name\"] for e in d[\"results\"][\"events\"] if e[\"significant\"]]" | grep -qx "\[\]" ||
		fail "two batches of one command flagged: $(json_get "[(e[\"name\"], e[\"ratio\"], e[\"q\"]) for e in d[\"results\"][\"events\"]]")"
'
test_done
