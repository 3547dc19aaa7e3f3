# --budget (issue 50 item 6): three namespace nodes of this VM (tests/cli/mpi.sh), one rank each,
# one layer class (--gap 100: none of their differences splits it). Under a budget no run can keep
# (0.001 s, already spent by the latency sweep) bandwidth and shift run their floor only: 2 pairs of
# the class, i.e. 2 of the 3 tournament rounds (4 of 6 directed pairs) and 1 of the 2 shift
# distances (3 of 6); the pairs left out are null in the matrices, counted in results.budget[] and
# said in the text. With a budget the run keeps (600 s), every pair is measured.
. "$(dirname "$0")/lib.sh"
require MPI NETNS ROOT
. "$ROOT/tests/cli/mpi.sh"
netns_up 3 || skip "needs NETNS ($NETNS_WHY)"

args="--skip nodes,loggp,contention,p2p,collectives --reps 20 --size 64KiB --bursts 2 --gap 100"
run 0 netns_mpirun 1 "$ARCHSCOPE" cluster --json --budget 0.001 $args
cp "$TMP/out" "$TMP/small.json"
run 0 netns_mpirun 1 "$ARCHSCOPE" cluster --budget 0.001 $args
cp "$TMP/out" "$TMP/small.txt"
run 0 netns_mpirun 1 "$ARCHSCOPE" cluster --json --budget 600 $args
cp "$TMP/out" "$TMP/big.json"

test_expect_success 'a small budget measures the floor only, and says so' '
	python3 - "$TMP/small.json" <<-\PY || fail "the budgeted run (above)"
	import json, math, sys
	r = json.load(open(sys.argv[1]))["results"]
	b = {x["phase"]: x for x in r["budget"]}
	print("# budget", b)
	def measured(m):
	    return sum(1 for i, row in enumerate(m) for j, v in enumerate(row) if i != j and v is not None)
	bw, sh = b["bandwidth"], b["shift"]
	assert (bw["steps"], bw["all_steps"], bw["floor_steps"]) == (2, 3, 2), bw
	assert (sh["steps"], sh["all_steps"], sh["floor_steps"]) == (1, 2, 1), sh
	assert bw["pairs"] == sh["pairs"] == 6, b
	assert bw["measured_pairs"] == measured(r["bandwidth_gbs"]) == 4, r["bandwidth_gbs"]
	assert sh["measured_pairs"] == measured(r["bandwidth_shift_gbs"]) == 3, r["bandwidth_shift_gbs"]
	assert bw["over_budget"] is True and bw["budget_seconds"] == 0.001, bw
	assert all("budgeted_seconds" in s and s["budgeted_seconds"] < s["seconds"] for s in r["scale"]), r["scale"]
	steps = {t["phase"]: t["steps"] for t in r["timing"]}
	assert steps["bandwidth"] == 2 and steps["shift"] == 1, steps
	PY
'

test_expect_success 'the text says what the budget left out' '
	contains "$TMP/small.txt" "--budget: the pairs measured, per layer class" &&
	contains "$TMP/small.txt" "bandwidth .* 4 pairs .* 6 pairs" &&
	contains "$TMP/small.txt" "with --budget"
'

test_expect_success 'a budget the run keeps measures every pair' '
	python3 - "$TMP/big.json" <<-\PY || fail "the run with a large budget (above)"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]
	b = {x["phase"]: x for x in r["budget"]}
	print("# budget", b)
	assert b["bandwidth"]["measured_pairs"] == 6 and b["bandwidth"]["steps"] == 3, b
	assert b["shift"]["measured_pairs"] == 6 and b["shift"]["steps"] == 2, b
	assert not b["bandwidth"]["over_budget"] and not b["shift"]["over_budget"], b
	PY
'

test_expect_success 'the results are what their description says' '
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/small.json" cluster &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/big.json" cluster
'

test_expect_success 'a budget of nothing is a usage error' '
	run 2 "$ARCHSCOPE" cluster --budget 0 &&
	contains "$TMP/err" "budget"
'
test_done
