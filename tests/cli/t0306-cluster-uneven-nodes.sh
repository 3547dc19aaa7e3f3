# Nodes that are not alike: of three namespace nodes, node2 may use one CPU only (taskset before
# its daemon starts). The node table shows it, the outliers name node2's CPUs against the median,
# the alike groups leave it out; and a node without a PMU (none has one in a VM without a virtual
# PMU) still gets every figure, its PMU reported as missing.
. "$(dirname "$0")/lib.sh"
require MPI NETNS
. "$ROOT/tests/cli/mpi.sh"
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs to take one away (has $(nproc))"
netns_up 3 || skip "needs NETNS ($NETNS_WHY)"
netns_hook 2 'taskset -pc 0 $$ >/dev/null'
pmu=false
prereq PMU && pmu=true

test_expect_success 'JSON: node2 has one CPU, named among the outliers and left out of the alike groups; every node its clock' '
	run 0 netns_mpirun 1 "$ARCHSCOPE" cluster --json --probes clock --skip bandwidth,shift,loggp,contention,p2p,collectives --reps 20
	python3 - "$TMP/out" "$pmu" "$(nproc)" <<-\PY || fail "JSON of the uneven run (above)"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]
	pmu, ncpu = sys.argv[2] == "true", int(sys.argv[3])
	nodes = r["nodes"]
	assert [n["host"] for n in nodes] == ["node0", "node1", "node2"], nodes
	assert [n["cpus"] for n in nodes] == [ncpu, ncpu, 1], [n["cpus"] for n in nodes]
	assert r["ranks"][2]["cpus"] == [0], r["ranks"][2]
	assert all(n["pmu"] == pmu for n in nodes), [n["pmu"] for n in nodes]
	assert all(n["clock_ghz"] > 0.1 for n in nodes), "a node without PMU still has its clock"
	out = [o for o in r["outliers"] if o["figure"] == "cpus"]
	assert [(o["node"], o["host"], o["value"], o["median"]) for o in out] == [(2, "node2", 1, ncpu)], r["outliers"]
	assert out[0]["difference"] < 0
	assert [n["alike"] for n in nodes][2] == 2 and nodes[0]["alike"] == 0, [n["alike"] for n in nodes]
	PY
'
test_expect_success 'text: the outliers table has node2'\''s CPUs, the PMU row' '
	run 0 netns_mpirun 1 "$ARCHSCOPE" cluster --probes clock --skip bandwidth,shift,loggp,contention,p2p,collectives --reps 20
	contains "$TMP/out" "outliers (off the nodes'\'' median by more than the run'\''s noise of that figure)"
	grep -q "^ *2 *node2 *cpus *1 *2 " "$TMP/out" || fail "no row for node2'\''s CPUs in: $(cat "$TMP/out")"
	grep -q "^ *PMU *$($pmu && echo yes || echo no) " "$TMP/out" || fail "no PMU row"
'
test_done
