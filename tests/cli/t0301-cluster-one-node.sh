# archscope cluster with every rank on this one machine (mpirun --oversubscribe -np 4): the rank
# -> node map, the JSON names, matrices and layers that hold together, and one rank refused.
. "$(dirname "$0")/lib.sh"
require MPI
. "$ROOT/tests/cli/mpi.sh"

# one rank: nothing to measure between ranks
test_expect_success 'one rank: nothing to measure, exit 2' '
	run 2 mpi_local 1 "$ARCHSCOPE" cluster
	contains "$TMP/err" "one rank has no pairs to measure: start it as '\''mpirun -np P"
'
test_expect_success 'four ranks on one node: the map, the JSON names, matrices and layers that hold together' '
	run 0 mpi_local 4 "$ARCHSCOPE" cluster --json --probes clock --size 64KiB --window 8 --bursts 3 --reps 50 --pair-sizes 8,64KiB \
		--sizes 8,64KiB --coll-sizes 8
	contains "$TMP/err" "every rank is on one node"
	python3 - "$TMP/out" "$(hostname)" <<-\PY || fail "JSON of a one-node run (above)"
	import json, math, sys
	d = json.load(open(sys.argv[1]))
	host = sys.argv[2]
	assert set(d) == {"archscope", "command", "machine", "results"} and d["command"] == "cluster", d.keys()
	r = d["results"]
	for k in ("ranks", "nodes", "outliers", "latency_us", "latency_p99_us", "bandwidth_gbs", "bandwidth_shift_gbs",
	          "layers", "contention", "sizes", "timing", "settings"):
	    assert k in r, "no results." + k
	P = 4
	assert [x["rank"] for x in r["ranks"]] == list(range(P))
	for x in r["ranks"]:
	    assert set(x) >= {"rank", "host", "cpus", "numa_node"}, x
	    assert x["host"] == host and x["node"] == 0 and x["cpus"], x
	    assert x["numa_node"] is None or isinstance(x["numa_node"], int), x
	assert len(r["nodes"]) == 1 and r["nodes"][0]["ranks"] == list(range(P)) and r["nodes"][0]["leader"] == 0
	assert r["nodes"][0]["clock_ghz"] > 0.1, r["nodes"][0]
	c = r["nodes"][0]["conditions"]  # the window of the node probes judges the clock too (issue 47)
	assert c["clock_ghz"] > 0.1 and c["clock_expected_ghz"] > 0.1 and 1 <= c["attempts"] <= 2, c
	assert r["outliers"] == []
	def square(m, name):
	    assert len(m) == P and all(len(row) == P for row in m), name
	    for i in range(P):
	        for j in range(P):
	            if i == j:
	                assert m[i][j] is None, (name, i)
	            else:
	                assert m[i][j] is not None and m[i][j] > 0 and math.isfinite(m[i][j]), (name, i, j, m[i][j])
	for k in ("latency_us", "latency_p99_us", "bandwidth_gbs", "bandwidth_shift_gbs"):
	    square(r[k], k)
	lat, p99 = r["latency_us"], r["latency_p99_us"]
	for i in range(P):
	    for j in range(P):
	        if i != j:
	            assert lat[i][j] == lat[j][i] and p99[i][j] >= lat[i][j], (i, j)
	# layers: partitions of the ranks, each nested in the next, the last one every rank
	layers = r["layers"]
	assert layers and layers[-1]["groups"] == [list(range(P))], layers[-1]
	for k, y in enumerate(layers):
	    assert sorted(sum(y["groups"], [])) == list(range(P)), y
	    assert y["pairs"] > 0 and y["latency_us"] > 0 and y["bandwidth_gbs"] > 0, y
	    g = y["loggp"]
	    assert set(g) >= {"pair", "L_us", "o_s_us", "o_r_us", "g_us", "G_ns_per_byte"}, g
	    assert g["o_s_us"] >= 0 and g["o_r_us"] >= 0 and g["rtt_us"] > 0, g
	    if k + 1 < len(layers):
	        outer = layers[k + 1]["groups"]
	        assert all(any(set(a) <= set(b) for b in outer) for a in y["groups"]), (y, outer)
	assert sum(y["pairs"] for y in layers) == P * (P - 1) // 2
	assert [s["bytes"] for s in r["sizes"]] == [8, 65536]
	for s in r["sizes"]:
	    square(s["latency_us"], "sizes.latency_us")
	    square(s["bandwidth_gbs"], "sizes.bandwidth_gbs")
	    # a 64 KiB message takes longer than an 8 B one on every pair
	big, small = r["sizes"][1]["latency_us"], r["sizes"][0]["latency_us"]
	assert all(big[i][j] > small[i][j] for i in range(P) for j in range(P) if i != j)
	assert [c["pairs_per_node"] for c in r["contention"]] == [1, 2], r["contention"]
	phases = [t["phase"] for t in r["timing"]]
	assert phases[:2] == ["nodes", "latency"] and "loggp" in phases, phases
	assert r["settings"]["one_pair"] in (True, False) and r["settings"]["reps"] == 50
	PY
'

# text for people, the phases left out not shown
test_expect_success 'text for people, the phases left out not shown' '
	run 0 mpi_local 2 "$ARCHSCOPE" cluster --skip nodes,bandwidth,shift,loggp,contention,p2p,collectives --reps 50
	contains "$TMP/out" "archscope cluster: 2 ranks on 1 node"
	contains "$TMP/out" "placement"
	contains "$TMP/out" "layers, innermost first"
	contains "$TMP/out" "latency: half the round trip of 8 B, median (us)"
	! grep -q "contention\|LogGP\|mpiGraph\|osu_latency\|collectives" "$TMP/out" || fail "a phase left out is shown"
'
test_done
