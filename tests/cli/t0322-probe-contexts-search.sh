# probe contexts by doubling and bisection: each kind's curve holds the team sizes measured, in
# increasing M starting at 1, no more than the team sizes counted; --all-teams measures every size
# 1, 2, ... The answers are not compared between the two (a loaded machine moves them).
. "$(dirname "$0")/lib.sh"
test_expect_success 'doubling, then bisection: increasing team sizes from 1, no more than counted' '
	run 0 "$ARCHSCOPE" probe contexts --quick --json
	python3 - "$TMP/out" search <<-\PY || fail "contexts search"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]["contexts"]
	assert r["search"] == "doubling, then bisection"
	for k in ("fp", "int", "mem"):
	    x = [p["threads"] for p in r[k]["curve"]]
	    assert x[0] == 1 and all(a < b for a, b in zip(x, x[1:])), x
	    assert len(x) <= r[k]["teams"], (x, r[k]["teams"])
	    assert r[k]["unit"] == "contexts" and r[k]["shape"] in ("jump", "ramp", "flat")
	PY
'
test_expect_success '--all-teams: every team size 1, 2, ...' '
	run 0 "$ARCHSCOPE" probe contexts --quick --all-teams --json
	python3 - "$TMP/out" <<-\PY || fail "contexts --all-teams"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]["contexts"]
	assert r["search"] == "every team size"
	for k in ("fp", "int", "mem"):
	    x = [p["threads"] for p in r[k]["curve"]]
	    assert x == list(range(1, len(x) + 1)) and r[k]["teams"] == len(x), x
	PY
'
test_done
