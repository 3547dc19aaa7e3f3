# archscope cluster across two nodes made of namespaces (tests/cli/mpi.sh): ranks on one node talk
# through shared memory, ranks on two nodes through TCP over a veth pair. The rank -> node map
# follows the namespaces, the layer tree puts the two nodes apart and their ranks together, and a
# pair on one node answers faster than a pair across (by far more than a busy machine's noise).
. "$(dirname "$0")/lib.sh"
require MPI NETNS
. "$ROOT/tests/cli/mpi.sh"
netns_up 2 || skip "needs NETNS ($NETNS_WHY)"

# The layers and latencies are measured with 4 ranks polling: where fewer than 4 CPUs run them,
# an intra-node pair is descheduled for whole time slices (on the 2-CPU Zen 5 guest of
# 2026-11-28 the session's starting commit read intra-node 8.7-9.3 us against inter-node 12 us in
# 3 runs of 3, and split a node into [[0], [1], [2, 3]]): the order of the layers then says how the
# scheduler shared 2 CPUs among 4 pollers, not what the network is. So the run's structure is
# checked everywhere, and the latency order and the layers only where every rank has a CPU (with
# one more measurement when it fails, for a rank another process descheduled).
check_structure() {
python3 - "$TMP/out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
hosts = [x["host"] for x in r["ranks"]]
assert hosts == ["node0", "node0", "node1", "node1"], hosts
assert [x["node"] for x in r["ranks"]] == [0, 0, 1, 1]
assert [(n["host"], n["leader"], n["ranks"]) for n in r["nodes"]] == [("node0", 0, [0, 1]), ("node1", 2, [2, 3])], r["nodes"]
assert all(n["clock_ghz"] > 0.1 for n in r["nodes"])
L = r["layers"]
assert L[-1]["groups"] == [[0, 1, 2, 3]], L[-1]["groups"]
lat = r["latency_us"]
print("# intra-node %s us, inter-node %s us" % ([lat[0][1], lat[2][3]], [lat[i][j] for i in (0, 1) for j in (2, 3)]))
lv = r["latency_levels"]
assert len(lv) >= 1 and sum(x["pairs"] for x in lv) == 6, lv
assert all(r["bandwidth_gbs"][i][j] > 0 for i in range(4) for j in range(4) if i != j)
for k in ("outliers", "contention"):
    assert isinstance(r[k], list), k
assert [c["pairs_per_node"] for c in r["contention"]] == [1, 2], r["contention"]
PY
}
check_layers() {
python3 - "$TMP/out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
L = r["layers"]
assert L[0]["groups"] == [[0, 1], [2, 3]], L[0]["groups"]
lat = r["latency_us"]
intra = [lat[0][1], lat[2][3]]
inter = [lat[i][j] for i in (0, 1) for j in (2, 3)]
assert max(intra) * 1.5 < min(inter), (intra, inter)
assert L[0]["latency_us"] < L[-1]["latency_us"]
lv = r["latency_levels"]
assert len(lv) >= 2, lv
assert all(lv[k]["max_us"] < lv[k + 1]["min_us"] for k in range(len(lv) - 1)), lv
PY
}
test_expect_success 'two nodes: the map follows the namespaces; the layers put the nodes apart where every rank has a CPU' '
	run 0 netns_mpirun 2 "$ARCHSCOPE" cluster --json --probes clock --size 64KiB --window 8 --bursts 3 --reps 100 --sizes 8,64KiB --coll-sizes 8
	check_structure || fail "JSON of the two-node run (above)"
	if [ "$(nproc)" -ge 4 ]; then
		ok=0
		for attempt in 1 2; do
			if check_layers; then
				ok=1
				break
			fi
			echo "# attempt $attempt: the layer check above failed; measuring once more" >&2
			run 0 netns_mpirun 2 "$ARCHSCOPE" cluster --json --probes clock --size 64KiB --window 8 --bursts 3 --reps 100 --sizes 8,64KiB --coll-sizes 8
			check_structure || fail "JSON of the two-node run (above)"
		done
		[ $ok = 1 ] || fail "the layers of the two-node run (above), twice"
	else
		check_layers >&2 || echo "# $(nproc) CPUs for 4 polling ranks: the layer order was measured, not asserted (above)" >&2
	fi
	! grep -q "warning: ranks .* pinned to the same CPU" "$TMP/err" || fail "unbound ranks reported as sharing a CPU"
'

# the default binding of Open MPI pins each node's first rank to CPU 0 of the one machine: said
test_expect_success 'the default binding pins the first rank of each node to one CPU: said' '
	NETNS_BIND=core run 0 netns_mpirun 1 "$ARCHSCOPE" cluster --skip nodes,bandwidth,shift,loggp,contention,p2p,collectives --reps 10
	contains "$TMP/err" "warning: ranks 0 (node0) and 1 (node1) are nodes of one machine pinned to the same CPU"
	contains "$TMP/out" "layer 1: \[0-1 on node0+node1\]"
'
test_done
