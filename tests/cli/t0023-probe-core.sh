# probe contexts timeslice: answers exist with units; contexts are at least 1 and at most the
# threads tried; the time slice is positive. Holds on any machine under load.
. "$(dirname "$0")/lib.sh"
run 0 "$ARCHSCOPE" probe contexts timeslice --quick --json --raw "$TMP/raw"
cp "$TMP/out" "$TMP/probe.json"
test_expect_success 'contexts and the time slice: units, contexts within the threads tried, a positive slice' '
	python3 - "$TMP/probe.json" <<-\PY || fail "contexts/timeslice answers"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]
	for k in ("fp", "int", "mem"):
	    a = r["contexts"][k]
	    assert a["unit"] == "contexts" and a["method"], a
	    tried = a["curve"][-1]["threads"]
	    assert a["value"] is None or 1 <= a["value"] <= tried, a
	    assert a["curve"][0]["normalised_min"] == 1.0
	s = r["timeslice"]
	assert s["slice"]["unit"] == "ms"
	assert s["threads"] >= 2
	assert s["slice"]["value"] is None or s["slice"]["value"] > 0
	PY
'
test_expect_success 'the raw contexts curve is written' '
	[ -s "$TMP/raw/contexts-fp.csv" ] || fail "raw contexts curve missing"
'
test_done
