# numa matrix: one row and column per NUMA node of this machine, every figure a positive number
# with its unit, the SLIT beside (or null), the note on a one-node machine, and a file that
# numa model reads back.
. "$(dirname "$0")/lib.sh"
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
[ "$nodes" -ge 1 ] || nodes=1
run 0 "$ARCHSCOPE" numa matrix --quick --size 8MiB --json --plot "$TMP/plot"
cp "$TMP/out" "$TMP/m.json"

test_expect_success 'the JSON: n x n matrices of positive figures, the SLIT or null, no write-allocate' '
	python3 - "$TMP/m.json" "$nodes" <<-\PY || fail "matrix JSON"
	import json, sys
	d = json.load(open(sys.argv[1]))
	r, n = d["results"], int(sys.argv[2])
	def need(c, msg):
	    if not c:
	        sys.exit("FAIL: " + msg)
	need(d["command"] == "numa matrix", "command name")
	need(len(r["nodes"]) == n, f"nodes: expected {n}")
	for key in ("latency_ns", "bandwidth_gbs", "bandwidth_1thread_gbs"):
	    m = r[key]
	    need(len(m) == n and all(len(row) == n and all(isinstance(v, float) and v > 0 for v in row) for row in m),
	         f"{key} is not an {n} x {n} matrix of positive numbers: {m}")
	need(r["slit"] is None or len(r["slit"]) == n, "slit is neither null nor n x n")
	need(r["write_allocate"] is False, "the load kernel has no write-allocate")
	PY
'
test_expect_success '--plot writes the latency and bandwidth plots' '
	for p in numa-latency numa-bandwidth-1thread numa-bandwidth; do [ -f "$TMP/plot/$p.gp" ] || fail "--plot wrote no $p.gp"; done
'
test_expect_success 'one node: the note, the units, write-allocate of triad, both idle latencies' '
	[ "$nodes" -eq 1 ] || skip "needs a machine with one NUMA node (this one has $nodes)"
	run 0 "$ARCHSCOPE" numa matrix --quick --size 8MiB --kernel triad
	contains "$TMP/out" "this machine has one NUMA node"
	contains "$TMP/out" "memory of node 0"
	contains "$TMP/out" " ns"
	contains "$TMP/out" " GB/s"
	grep -Eq "write-allocate +yes" "$TMP/out" || fail "triad: write-allocate not said"
	contains "$TMP/out" "idle latency, page-local chase"
	contains "$TMP/out" "idle latency, fully random chase"
	grep -Eq "streams'\'' size from +--size" "$TMP/out" || fail "--size not named as the streams'\'' size"
'
# what --json wrote is a matrix numa model reads
test_expect_success 'numa model reads the matrix --json wrote' '
	first=$(json_get "d[\"results\"][\"nodes\"][0]" "$TMP/m.json") || fail "no first node in the matrix JSON"
	run 0 "$ARCHSCOPE" numa model --matrix "$TMP/m.json" --flow "$first:$first:1"
	contains "$TMP/out" "$first:$first:1"
	contains "$TMP/out" "limit"
'
test_done
