# compare on synthesized stat results with known distributions (tests/fixtures/measure/README.md):
# constants, a real shift, equal and unequal-variance nulls, a not-counted side, too few runs.
. "$(dirname "$0")/lib.sh"
F="$ROOT/tests/fixtures/measure"
cat >"$TMP/check.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["command"] == "compare"
ev = d["results"]["events"]
for e in ev:
    for k in ("name", "mean_a", "mean_b", "ratio", "p", "q", "significant"):
        assert k in e, (e["name"], k)
by = {e["name"]: e for e in ev}
assert by["const-same"]["p"] == 1 and not by["const-same"]["significant"]
assert by["const-diff"]["p"] == 0 and by["const-diff"]["significant"]
s = by["shift-10pct"]
assert s["significant"] and s["q"] < 0.01 and 1.05 < s["ratio"] < 1.15 and s["ratio_low"] < s["ratio"] < s["ratio_high"]
assert not by["null-equal"]["significant"] and not by["unequal-var"]["significant"]
assert by["not-counted"]["p"] is None and by["not-counted"]["q"] is None and not by["not-counted"]["significant"]
assert by["not-counted"]["mean_b"] is None      # not counted is missing, not 0
# sorted by q (tests first, untested last)
qs = [e["q"] for e in ev if e["q"] is not None]
assert qs == sorted(qs), qs
assert ev[-1]["name"] == "not-counted"
# BH: q >= p, and the number of tests excludes the untested event
assert all(e["q"] >= e["p"] for e in ev if e["q"] is not None)
assert d["results"]["tests"] == 6
PY
test_expect_success 'constants, a real shift, nulls, a not-counted side, too few runs: p, q and the order' '
	run 0 "$ARCHSCOPE" compare --json "$F/compare-a.json" "$F/compare-b.json"
	contains "$TMP/err" "fewer than 3 runs"
	python3 "$TMP/check.py" "$TMP/out" || fail "compare JSON"
'
# a stricter alpha and a larger minimum change flag fewer
test_expect_success '--min-change 10 does not flag a 9 % change' '
	run 0 "$ARCHSCOPE" compare --json --min-change 10 "$F/compare-a.json" "$F/compare-b.json"
	! json_get "[e[\"name\"] for e in d[\"results\"][\"events\"] if e[\"significant\"]]" | grep -q shift || fail "--min-change 10 kept a 9 % change"
'
test_expect_success '-e restricts the events' '
	run 0 "$ARCHSCOPE" compare -e const-same,const-diff "$F/compare-a.json" "$F/compare-b.json"
	! grep -q shift "$TMP/out" || fail "-e did not restrict the events"
'
test_expect_success 'one file, a file that is not a stat result, --alpha 0: exit 2' '
	run 2 "$ARCHSCOPE" compare "$F/compare-a.json"
	run 2 "$ARCHSCOPE" compare "$F/compare-a.json" "$F/README.md"
	run 2 "$ARCHSCOPE" compare --alpha 0 "$F/compare-a.json" "$F/compare-b.json"
'
test_done
