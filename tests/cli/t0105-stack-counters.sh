# stack, tier 2 (item 8): where hardware counters open, every run is counted and work_inflation is
# split into llc, memory, coherency and parallelization_overhead, still summing to N; where they
# do not (a VM without PMU), the output says so and the stack is tier 0's. Either way one of the
# two holds on any machine.
. "$(dirname "$0")/lib.sh"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
EX=$(dirname "$ARCHSCOPE")
[ -x "$EX/stack-parallel" ] || skip "needs the stack examples beside $ARCHSCOPE"
test_expect_success '--json: tier 2 splits work_inflation where counters open, or says why not; components sum to N' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- "$EX/stack-parallel" "{T}" 100
	"$PY" - "$TMP/out" <<-\PY || fail "tier 2 in the JSON"
	import json, sys
	res = json.load(open(sys.argv[1]))["results"]
	c = res["counters"]
	t2 = {"llc", "memory", "coherency", "parallelization_overhead"}
	r = res["runs"][0]
	if c.startswith("every run counted"):
	    assert t2 <= set(r["components"]), r["components"]
	    assert all(r["components"][k] >= 0 for k in t2), r["components"]
	else:
	    assert c.startswith("not used, work_inflation is not split ("), c
	    assert not (t2 & set(r["components"])), r["components"]
	assert abs(sum(r["components"].values()) - 2) < 1e-6, r["components"]
	PY
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 -- "$EX/stack-parallel" "{T}" 100
'
test_expect_success 'the text has the tier 2 counters line' '
	grep -Eq "tier 2 counters +(every run counted|not used)" "$TMP/out" || fail "no tier 2 line in the text"
	exit 0
'
test_done
