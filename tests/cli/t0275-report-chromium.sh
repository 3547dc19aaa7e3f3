# The report page in Debian's headless Chromium (DevTools protocol over a pipe, tests/cli/chromium-cdp.py):
# it loads with no console message and no exception, requests nothing but itself, every figure is
# an <svg> in the DOM, it has no horizontal overflow on a 390 px phone screen, and it prints (PDF).
# The screenshots are kept: BUILD/test-output/t0275-report.png (desktop) and -phone.png.
. "$(dirname "$0")/lib.sh"
require CHROMIUM
chromium=$(command -v chromium || command -v chromium-browser)
F=$ROOT/tests/fixtures/report
run 0 "$ARCHSCOPE" report -o "$TMP/r.html" --from "$F/topology.json" "$F/probe.json" "$F/bench-scaling.json" \
	"$F/model-jacobi.json" "$F/model-triad.json" "$F/numa-matrix.json"
outdir=${ARCHSCOPE_TEST_OUTPUT:-$(dirname "$ARCHSCOPE")/test-output}
mkdir -p "$outdir" || fail "cannot make $outdir"
timeout 180 python3 "$ROOT/tests/cli/chromium-cdp.py" "$chromium" "$TMP/r.html" "$outdir/t0275-report.png" \
	"$outdir/t0275-report-phone.png" >"$TMP/cdp.json" 2>"$TMP/cdp.err" ||
	{ cat "$TMP/cdp.err" >&2; fail "chromium-cdp.py failed"; }
test_expect_success 'no console message, no exception, no request but the page itself' '
	python3 - "$TMP/cdp.json" <<-\PY || fail "the page in Chromium"
	import json, sys
	d = json.load(open(sys.argv[1]))
	assert d["console"] == [], d["console"]
	assert d["exceptions"] == [], d["exceptions"]
	assert d["requests"] == [], d["requests"]
	PY
'
test_expect_success 'desktop, phone and print: every figure an <svg> in the DOM, drawn, the data block named' '
	python3 - "$TMP/cdp.json" "$TMP/r.html" <<-\PY || fail "the page in Chromium"
	import json, sys
	d = json.load(open(sys.argv[1]))
	page = open(sys.argv[2], encoding="utf-8").read()
	for view in ("desktop", "phone", "print"):
	    v = d[view]
	    assert v["figures"] == page.count("<figure "), (view, v["figures"])
	    assert v["figures"] >= 15 and v["figures_with_svg"] == v["figures"] == v["svgs"], (view, v)
	    assert v["data"] == ["archscope", "generated", "sources"], v["data"]
	for w, h in d["desktop"]["svg_sizes"]:
	    assert w > 100 and h > 80, d["desktop"]["svg_sizes"]  # drawn, not collapsed
	PY
'
test_expect_success 'no horizontal overflow on a 390 px phone screen' '
	python3 - "$TMP/cdp.json" <<-\PY || fail "the page in Chromium"
	import json, sys
	d = json.load(open(sys.argv[1]))
	assert d["phone"]["scroll_width"] <= d["phone"]["inner_width"] <= 400, d["phone"]  # no sideways scrolling
	PY
'
test_expect_success 'it prints (PDF)' '
	python3 - "$TMP/cdp.json" <<-\PY || fail "the page in Chromium"
	import json, sys
	d = json.load(open(sys.argv[1]))
	assert d["pdf_bytes"] > 10000, d["pdf_bytes"]
	PY
'
test_expect_success 'the screenshots are kept' '
	[ -s "$outdir/t0275-report.png" ] || fail "no screenshot"
	echo "screenshot: $outdir/t0275-report.png (phone: $outdir/t0275-report-phone.png)"
'
test_done
