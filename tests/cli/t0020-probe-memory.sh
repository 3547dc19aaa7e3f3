# probe line caches assoc tlb on this machine: answers exist with units, levels are ordered, raw
# curves and plots are written, and analyze re-derives the cache levels from the raw CSV. Only
# what holds on any machine under load is asserted.
. "$(dirname "$0")/lib.sh"
run 0 "$ARCHSCOPE" probe line caches assoc tlb --quick --json --seed 7 --raw "$TMP/raw" --plot "$TMP/plot"
cp "$TMP/out" "$TMP/probe.json"
test_expect_success 'the answers have units, the levels are ordered' '
	python3 - "$TMP/probe.json" <<-\PY || fail "probe answers"
	import json, sys, math
	d = json.load(open(sys.argv[1]))
	assert d["command"] == "probe" and d["results"]["seed"] == 7
	r = d["results"]
	def ans(a, unit):
	    assert a["unit"] == unit, a
	    assert 0 <= a["confidence"] <= 1 and a["method"] and "os_reported" in a
	    return a["value"]
	line = ans(r["line"], "B")
	assert line is not None and line in (16, 32, 64, 128, 256), line
	lv = r["caches"]["levels"]
	assert len(lv) >= 1, "no cache level"
	sizes = [ans(l["size"], "B") for l in lv]
	lat = [ans(l["latency"], "ns") for l in lv]
	assert all(a < b for a, b in zip(sizes, sizes[1:])), sizes
	assert all(a < b for a, b in zip(lat, lat[1:])), lat
	assert lat[0] > 0 and all(l["latency_cy"] > 0 for l in lv)
	mem = ans(r["caches"]["memory_latency"], "ns")
	assert mem is None or mem > lat[-1], (mem, lat)
	assert len(r["assoc"]["levels"]) == len(lv)
	for a in r["assoc"]["levels"]:
	    w = ans(a["ways"], "ways")
	    assert w is None or w >= 1
	page = ans(r["tlb"]["page_size"], "B")
	# Under load the answer may be off; it is still one of the strides probed (a power of two).
	assert page is None or (4 * line <= page <= 262144 and int(page) & (int(page) - 1) == 0), page
	ent = [ans(l["entries"], "entries") for l in r["tlb"]["levels"]]
	assert all(a < b for a, b in zip(ent, ent[1:])), ent
	PY
'
test_expect_success 'the raw curves are written' '
	for f in line caches assoc-L1 tlb-page tlb-entries tlb-control; do
		[ -s "$TMP/raw/$f.csv" ] || fail "missing raw curve $f.csv"
	done
'
test_expect_success 'the caches plot is written' '
	command -v gnuplot >/dev/null || skip "no gnuplot"
	[ -s "$TMP/plot/caches.svg" ] && [ -s "$TMP/plot/caches.png" ] || fail "caches plot missing"
'
# analyze re-derives the probe's cache levels from its raw CSV, exactly.
test_expect_success 'analyze re-derives the cache levels from the raw CSV, exactly' '
	run 0 "$ARCHSCOPE" analyze --method levels --json "$TMP/raw/caches.csv"
	python3 - "$TMP/probe.json" "$TMP/out" <<-\PY || fail "analyze disagrees with probe"
	import json, sys
	p = json.load(open(sys.argv[1]))["results"]["caches"]["levels"]
	a = json.load(open(sys.argv[2]))["results"]["levels"]
	assert [l["size"]["value"] for l in p] == [l["size"]["value"] for l in a], (p, a)
	PY
'
# text output carries units
test_expect_success 'the text carries units' '
	run 0 "$ARCHSCOPE" probe line --quick
	contains "$TMP/out" "cache line .* B"
'
test_done
