# probe c2c: n x n matrices with an empty diagonal, positive bandwidths and latencies, and a tree
# whose root holds every CPU measured. Skipped with fewer than two allowed CPUs.
. "$(dirname "$0")/lib.sh"
[ "$(python3 -c 'import os; print(len(os.sched_getaffinity(0)))')" -ge 2 ] || skip "c2c needs two CPUs"
run 0 "$ARCHSCOPE" probe c2c --quick --json --raw "$TMP/raw"
cp "$TMP/out" "$TMP/probe.json"
test_expect_success 'n x n matrices with an empty diagonal, positive and symmetric; the tree'\''s root holds every CPU' '
	python3 - "$TMP/probe.json" <<-\PY || fail "c2c answers"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]["c2c"]
	n = len(r["cpus"])
	assert n >= 2
	for m in (r["bandwidth_gbs"], r["latency_ns"]):
	    assert len(m) == n and all(len(row) == n for row in m)
	    for i in range(n):
	        assert m[i][i] is None
	        for j in range(n):
	            if i != j:
	                assert m[i][j] > 0 and m[i][j] == m[j][i]
	assert len(r["blocks"]) >= 2
	root = r["tree"]["nodes"][0]
	assert root["parent"] == -1 and sorted(root["cpus"]) == sorted(r["cpus"])
	assert r["tree"]["leaves"] >= 1
	PY
'
test_expect_success 'the raw c2c curve is written' '
	[ -s "$TMP/raw/c2c-bandwidth.csv" ] || fail "raw c2c curve missing"
'
test_expect_success 'the text: bandwidths in GB/s and the locality tree' '
	run 0 "$ARCHSCOPE" probe c2c --quick
	contains "$TMP/out" "GB/s"
	contains "$TMP/out" "locality tree"
'
test_done
