# bench --ecm and --threads-scaling: the table has a row per kernel and level, the calibration rows
# are met exactly, every prediction is positive and grows outwards; one thread per CPU for the
# scaling view; bad input exits 2.
. "$(dirname "$0")/lib.sh"
test_expect_success 'bench --ecm: a row per kernel and level, calibration met, predictions positive and growing outwards' '
	run 0 "$ARCHSCOPE" bench --ecm copy --reps 1 --min-time 0.01 --json
	python3 - "$TMP/out" <<-\PY || fail "bench --ecm answers"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]
	p, rows = r["parameters"], r["ecm"]
	levels = [x["level"] for x in rows if x["kernel"] == "load"]
	assert levels[0] == "L1" and levels[-1] == "MEM" and len(levels) >= 2, levels
	assert len(p["transfers"]) == len(levels) - 1
	assert p["l1_load_bytes_per_cy"] > 0 and p["l1_store_bytes_per_cy"] > 0
	kernels = {x["kernel"] for x in rows}
	assert kernels == {"load", "store", "copy"}, kernels   # load and store always: they calibrate
	for x in rows:
	    assert x["predicted_cy_per_cl"] > 0 and x["measured_cy_per_cl"] > 0, x
	    if x["calibration"]:
	        assert abs(x["predicted_over_measured"] - 1) < 1e-9 or x["kernel"] == "load", x
	for k in kernels:
	    pred = [x["predicted_cy_per_cl"] for x in rows if x["kernel"] == k]
	    assert all(b >= a for a, b in zip(pred, pred[1:])), (k, pred)
	assert "core cycles" in r["cycles"]
	PY
'
test_expect_success 'bench --ecm text: pred/meas and the calibration rows' '
	run 0 "$ARCHSCOPE" bench --ecm load --reps 1 --min-time 0.01
	contains "$TMP/out" "pred/meas %"
	contains "$TMP/out" "calibration"
'
test_expect_success 'bench --threads-scaling: a row per thread count with positive bandwidths' '
	run 0 "$ARCHSCOPE" bench --threads-scaling sum -t 1 --reps 1 --min-time 0.01 --json
	json_get "len(d[\"results\"][\"scaling\"]) == 1 and d[\"results\"][\"scaling\"][0][\"levels\"][0][\"gbs\"] > 0" | grep -qx True ||
		fail "threads-scaling rows"
'
test_expect_success 'bad --ecm and --threads-scaling input exits 2' '
	run 2 "$ARCHSCOPE" bench --ecm nosuch
	run 2 "$ARCHSCOPE" bench --ecm copy -s 1MB
	run 2 "$ARCHSCOPE" bench --ecm --variant avx2-nt
	run 2 "$ARCHSCOPE" bench --threads-scaling copy stream
	run 2 "$ARCHSCOPE" bench --ecm --threads-scaling
'
test_done
