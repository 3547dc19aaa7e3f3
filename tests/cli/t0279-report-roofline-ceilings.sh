# report: the Roofline's figures are consistent with each other (issue 51 item 6). From recorded
# inputs (tests/fixtures/report/: this run measured MEM at 6.61 GB/s, the models' machine file says
# 15.6-15.7 GB/s) the page draws both ceilings, each labelled with its source, and every model point
# lies on or under the ceiling its label names. The check reads the numbers in the page's SVG: the
# ceilings' lines and titles, the compute ceilings' labels (pixels per decade), the points' circles.
. "$(dirname "$0")/lib.sh"
F=$ROOT/tests/fixtures/report
check_roofline() { # PAGE MODEL.json...: the Roofline's ceilings and points agree
python3 - "$@" <<'PY'
import json, math, re, sys, xml.etree.ElementTree as ET
page, *models = sys.argv[1:]
s = open(page).read()
i = s.index('id="fig-roofline"')
svg = ET.fromstring(s[s.index("<svg", i):s.index("</svg>", i) + 6])
ns = "{http://www.w3.org/2000/svg}"
def title(e):
    t = e.find(ns + "title")
    return t.text if t is not None else None
ceil = {}  # title -> (x1, y1, x2, y2)
for e in svg.iter(ns + "line"):
    if title(e) and "roof" in e.get("class", ""):
        ceil[title(e)] = tuple(float(e.get(k)) for k in ("x1", "y1", "x2", "y2"))
assert ceil, "no bandwidth ceiling named"
def at(line, x):  # the line's y at x, extended (straight on log-log axes)
    x1, y1, x2, y2 = line
    return y1 + (y2 - y1) * (x - x1) / (x2 - x1)
def gbs(t):
    m = re.match(r"(\S+) ([0-9.e+]+) GB/s \((.+)\)$", t)
    assert m, t
    return m.group(1), float(m.group(2)), m.group(3)
# pixels per decade of GFLOP/s from two compute ceilings (their labels sit 4 px above their lines)
peaks = []
for e in svg.iter(ns + "text"):
    m = re.match(r"DP \w+ peak ([0-9.e+]+) GFLOP/s", e.text or "")
    if m and "clbl" in e.get("class", ""):
        peaks.append((float(m.group(1)), float(e.get("y")) + 4))
ppd = None
if len(peaks) >= 2:
    (v1, y1), (v2, y2) = peaks[:2]
    ppd = (y2 - y1) / math.log10(v1 / v2)
    # each ceiling's value against its drawn height: parallel lines lie log10(b1/b2) decades apart
    first = next(iter(ceil))
    for t, line in ceil.items():
        d = at(ceil[first], 300) - at(line, 300)
        want = ppd * math.log10(gbs(t)[1] / gbs(first)[1])
        assert abs(d - want) <= 1.5 + 0.01 * abs(want), (t, first, d, want)
points = [(float(e.get("cx")), float(e.get("cy")), title(e)) for e in svg.iter(ns + "circle") if title(e)]
assert len(points) == len(models), points
sources = set()
for path in models:
    r = json.load(open(path))["results"]
    kernel = r["kernel"].rsplit("/", 1)[-1]
    bn = r["roofline"]["bottleneck"]
    lv = next(x for x in r["roofline"]["levels"] if x["level"] == bn)
    mf = r["machine_file"].rsplit("/", 1)[-1].rsplit(".", 1)[0]
    px, py, t = next(p for p in points if p[2].startswith(kernel + " ("))
    m = re.match(re.escape(kernel) + r" \(model, (\S+)-bound: (.+)\)$", t)
    assert m and m.group(1) == bn, t
    name = m.group(2)
    level, value, source = gbs(name)
    # the ceiling it names: drawn, of its bottleneck level, from the machine file it used, at its bandwidth
    assert name in ceil, (name, list(ceil))
    assert level == bn and source.startswith("machine file " + mf), (name, mf)
    assert f"{lv['bandwidth_gbs']:.3g}" == f"{value:.3g}", (name, lv["bandwidth_gbs"])
    under = py - at(ceil[name], px)
    assert under >= -1, (t, under)  # on or under its ceiling
    sources.add(source)
    # and above any lower ceiling of that level (this run's): the check is not vacuous
    for other, line in ceil.items():
        if gbs(other)[0] == bn and gbs(other)[1] < value / 1.5:
            assert py - at(line, px) < -5, (t, other)
print(len(ceil), "ceilings,", len(points), "points,", "ppd", ppd, sorted(sources))
PY
}
test_expect_success 'a run MEM ceiling and the machine file'\''s, each labelled; every point under its own' '
	run 0 "$ARCHSCOPE" report -o "$TMP/r.html" --from "$F/probe.json" "$F/bench-scaling.json" \
		"$F/model-triad.json" "$F/model-jacobi.json"
	grep -q "<title>MEM 6.61 GB/s (measured, bench-scaling.json)</title>" "$TMP/r.html" || fail "the measured MEM ceiling"
	grep -q "<title>MEM 15.7 GB/s (machine file kvm-xeon-6-207, stream kernel)</title>" "$TMP/r.html" ||
		fail "the machine file'\''s MEM ceiling"
	check_roofline "$TMP/r.html" "$F/model-triad.json" "$F/model-jacobi.json" || fail "the Roofline'\''s figures disagree"
'
test_expect_success 'without a bench: the machine file'\''s ceilings, the points under theirs' '
	run 0 "$ARCHSCOPE" report -o "$TMP/m.html" --from "$F/probe.json" "$F/model-jacobi.json" "$F/model-triad.json"
	! grep -q "(measured" "$TMP/m.html" || fail "a measured ceiling without a bench"
	check_roofline "$TMP/m.html" "$F/model-jacobi.json" "$F/model-triad.json" || fail "the Roofline'\''s figures disagree"
'
test_done
