# probe instr registers: every generated kernel runs and gives positive figures with units, the
# compiler and flags are recorded, FLOPs per cycle are derived, registers are at least 3 or no
# step. Holds on any machine under load (no figure is compared with a published one here).
. "$(dirname "$0")/lib.sh"
run 0 "$ARCHSCOPE" probe instr registers --quick --json --raw "$TMP/raw"
cp "$TMP/out" "$TMP/probe.json"
test_expect_success 'every kernel: positive figures, compiler and flags, published figures, FLOPs per cycle, registers' '
	python3 - "$TMP/probe.json" <<-\PY || fail "instr/registers answers"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]
	i = r["instr"]
	assert i["compiler"] and "-O2" in i["flags"], i["flags"]
	assert i["cycles"].startswith("core cycles"), i["cycles"]
	ops = i["ops"]
	assert len(ops) >= 18, len(ops)
	seen = {(o["op"], o["type"], o["lanes"] > 1) for o in ops}
	for op in ("add", "sub", "mul", "div"):
	    for t in ("int32", "int64", "float", "double"):
	        assert (op, t, False) in seen, (op, t)
	for o in ops:
	    assert o["latency_cy"] > 0 and o["throughput_per_cy"] > 0, o
	    assert 1 <= o["in_flight"] <= len(o["cost_per_iteration"]), o
	    assert o["width_bits"] in (32, 64) or o["lanes"] > 1, o
	# Published figures, when archscope has a table for this CPU: per source, and the row agrees when
	# at least one source does (the shape only; no figure is compared here).
	srcs = i["published_sources"]
	for o in ops:
	    p = o["published"]
	    if srcs is None:
	        assert p is None, o
	    elif p is not None:
	        assert p["instruction"] and p["sources"], p
	        assert p["within_1_cy"] == any(x["within_1_cy"] for x in p["sources"]), p
	        assert all(x["latency_cy"] > 0 and x["throughput_per_cy"] > 0 for x in p["sources"]), p
	if srcs is not None:
	    n = sum(o["published"] is not None for o in ops)
	    assert all(x["tag"] and 0 <= x["rows_within_1_cy"] <= x["rows_with_figures"] <= n for x in srcs), srcs
	    # every compared row has a figure from at least one source
	    assert all(o["published"]["sources"] for o in ops if o["published"] is not None)
	add32 = [o for o in ops if o["op"] == "add" and o["type"] == "int32" and o["lanes"] == 1][0]
	assert abs(add32["relative_to_int32_add"] - 1.0) < 1e-9
	f = i["flops_per_cycle"]
	for p in ("SP", "DP"):
	    for shape in ("scalar", "vector"):
	        d = f[p][shape]
	        assert d["total"] >= max(d["ADD"], d["MUL"], d["FMA"]) and d["ADD"] >= 0, d
	assert f["DP"]["scalar"]["ADD"] > 0
	g = r["registers"]
	for k in ("int", "fp"):
	    a = g[k]
	    assert a["unit"] == "registers" and a["flags"], a
	    assert a["value"] is None or a["value"] >= 3, a
	    assert a["curve"][0]["k"] == 3 and a["curve"][-1]["k"] == 132, a["curve"][-1]
	PY
'
test_expect_success 'the raw instr and registers curves are written' '
	[ -s "$TMP/raw/instr-add-int32-32.csv" ] || fail "raw instr curve missing"
	[ -s "$TMP/raw/registers-int-wide.csv" ] || fail "raw registers curve missing"
'
test_done
