# numa model on the recorded-shape matrices of tests/fixtures/numa: the hand-worked cases of
# u-numa.c through the command, results.flows[] with exactly the names of the issue, and the
# limit each flow met.
. "$(dirname "$0")/lib.sh"
fix=$ROOT/tests/fixtures/numa
test_expect_success 'two nodes, --json: the flows with the names of the issue, predictions and limits' '
	run 0 "$ARCHSCOPE" numa model --matrix "$fix/matrix-2node.json" --flow 0:0:4 --flow 1:0:8 --json
	python3 - "$TMP/out" <<-\PY || fail "model JSON"
	import json, sys
	d = json.load(open(sys.argv[1]))
	f = d["results"]["flows"]
	def need(c, msg):
	    if not c:
	        sys.exit("FAIL: " + msg)
	need(d["command"] == "numa model", "command name")
	need(all({"src", "dst", "threads", "predicted_gbs", "measured_gbs"} <= set(x) for x in f), "flows[] names")
	need([(x["src"], x["dst"], x["threads"]) for x in f] == [(0, 0, 4), (1, 0, 8)], "flows")
	need([round(x["predicted_gbs"], 6) for x in f] == [48.0, 40.0], "0:0:4 + 1:0:8 should give 48 and 40 GB/s")
	need([x["measured_gbs"] for x in f] == [None, None], "measured_gbs must be null")
	need([x["limit"] for x in f] == ["thread", "path"], "limits")
	PY
'
test_expect_success 'four nodes, text: the hand-worked rates and the limits' '
	run 0 "$ARCHSCOPE" numa model -m "$fix/matrix-4node.json" -f 2:0:6 -f 3:0:6 -f 0:0:2
	contains "$TMP/out" "25.00 GB/s"
	contains "$TMP/out" "24.00 GB/s"
	contains "$TMP/out" "11.00 GB/s"
	contains "$TMP/out" "memory of node 0"
	contains "$TMP/out" "path 2->0"
'
test_done
