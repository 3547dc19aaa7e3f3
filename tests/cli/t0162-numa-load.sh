# numa load on this machine's first node: a line per second, the flows, links and cross-talk
# tables, --predict beside, JSON names (two flows and Ctrl-C: t0165).
. "$(dirname "$0")/lib.sh"
test_expect_success 'text: a line per second, the cross-talk and links tables' '
	run 0 "$ARCHSCOPE" numa load 0:0:1 --duration 1 --size 4MiB
	contains "$TMP/out" "1.0 s  together  0:0:1"
	contains "$TMP/out" "cross-talk"
	contains "$TMP/out" "links"
	contains "$TMP/out" "GB/s"
'
test_expect_success '--json --predict: the flow, its prediction, cross-talk, links and series' '
	run 0 "$ARCHSCOPE" numa load 0:0:1 --duration 1 --size 4MiB --json --predict "$ROOT/tests/fixtures/numa/matrix-2node.json"
	contains "$TMP/err" "together"
	python3 - "$TMP/out" <<-\PY || fail "load JSON"
	import json, sys
	d = json.load(open(sys.argv[1]))
	r = d["results"]
	def need(c, msg):
	    if not c:
	        sys.exit("FAIL: " + msg)
	need(d["command"] == "numa load", "command name")
	f = r["flows"][0]
	need((f["src"], f["dst"], f["threads"]) == (0, 0, 1), "flow")
	need(f["measured_gbs"] > 0, "measured_gbs")
	need(round(f["predicted_gbs"], 6) == 12.0, "predicted_gbs from the matrix (one thread: 12)")
	need(r["crosstalk"][0]["alone_gbs"] == r["crosstalk"][0]["together_gbs"], "one flow: alone is together")
	need(r["links"][0]["src"] == 0 and r["links"][0]["dst"] == 0 and r["links"][0]["measured_gbs"] > 0, "links")
	need(len(r["series"]) >= 1 and r["series"][0][0] > 0, "per-second series")
	PY
'
test_done
