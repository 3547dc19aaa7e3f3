# Nodes that share a machine are said (issue 50 item 4): three namespace nodes of this one VM
# (tests/cli/mpi.sh) share its kernel (boot id) and, unbound, its CPUs. The node table says so
# (nodes[].machine, nodes[].shares_cpus, a line of text), no difference between them is called an
# outlier, and their probes ran one after another: the nodes phase took at least the sum of the
# probes' times (at once, it would take about the longest).
. "$(dirname "$0")/lib.sh"
require MPI NETNS ROOT
. "$ROOT/tests/cli/mpi.sh"
netns_up 3 || skip "needs NETNS ($NETNS_WHY)"

args="--probes clock,caches --node-memory 4MiB --skip bandwidth,shift,loggp,contention --reps 20"
run 0 netns_mpirun 1 "$ARCHSCOPE" cluster --json $args
cp "$TMP/out" "$TMP/run.json"
run 0 netns_mpirun 1 "$ARCHSCOPE" cluster ${args/clock,caches/clock}
cp "$TMP/out" "$TMP/run.txt"

test_expect_success 'the nodes of one kernel are one machine, sharing CPUs, with no outliers among them' '
	python3 - "$TMP/run.json" <<-\PY || fail "the node table of the run (above)"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]
	n = r["nodes"]
	print("# nodes", [(x["host"], x["machine"], x["shares_cpus"], x["seconds"]) for x in n])
	assert [x["host"] for x in n] == ["node0", "node1", "node2"], n
	assert [x["machine"] for x in n] == [0, 0, 0], n
	assert all(x["shares_cpus"] is True for x in n), n
	assert r["outliers"] == [], r["outliers"]
	PY
'

test_expect_success 'their probes ran one after another' '
	python3 - "$TMP/run.json" <<-\PY || fail "the nodes phase against the probes (above)"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]
	phase = [t for t in r["timing"] if t["phase"] == "nodes"][0]["seconds"]
	probes = [x["seconds"] for x in r["nodes"]]
	print("# nodes phase %.2f s, probes %s s" % (phase, probes))
	assert phase >= 0.95 * sum(probes), (phase, probes)
	PY
'

test_expect_success 'the text says which nodes share the machine' '
	contains "$TMP/run.txt" "nodes 0 (node0), 1 (node1), 2 (node2) share one machine (kernel boot id .*) and CPUs: probed one after another"
	! grep -q "^outliers (" "$TMP/run.txt" || fail "outliers listed"
'

test_expect_success 'the results are what their description says' '
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/run.json" cluster
'
test_done
