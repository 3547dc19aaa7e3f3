# events lists libpfm4's events with unit masks and whether each opens here (software events do
# on any Linux; where there is no PMU, hardware events say why), and another CPU's with --pmu or
# LIBPFM_FORCE_PMU.
. "$(dirname "$0")/lib.sh"
cat >"$TMP/check.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["results"]
have_pmu = sys.argv[2] == "1"
ev = {e["name"]: e for e in d["events"]}
assert d["count"] == len(d["events"]) > 10
assert all("PERF_COUNT" in e["name"] for e in d["events"])
sw = ev["perf::PERF_COUNT_SW_PAGE_FAULTS"]
assert sw["kind"] == "software" and sw["opens"] is True and sw["reason"] is None, sw
for e in d["events"]:
    assert set(e) >= {"name", "pmu", "kind", "description", "umasks", "modifiers", "opens", "reason"}, e
    if e["opens"] is False:
        assert e["reason"], e
cy = ev["perf::PERF_COUNT_HW_CPU_CYCLES"]
assert cy["kind"] == "hardware"
if not have_pmu:
    assert cy["opens"] is False and "PMU" in cy["reason"], cy
assert d["tracepoints"]
PY
cat >"$TMP/forced.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["results"]
assert d["forced_pmu"] == "skx", d["forced_pmu"]
ev = {e["name"]: e for e in d["events"]}
ir = ev["skx::INST_RETIRED"]
um = {u["name"]: u for u in ir["umasks"]}
assert um["ANY_P"]["default"] is True and "PREC_DIST" in um, um.keys()
assert ir["opens"] is None and "forced" in ir["reason"], ir
assert all(e["name"].startswith("skx::") or e["pmu"] != "skx" for e in d["events"])
assert any(m["name"] == "u" for m in ir["modifiers"]), ir["modifiers"]
PY
test_expect_success 'events --json: software events open, hardware ones say why not, every field named' '
	run 0 "$ARCHSCOPE" events --json PERF_COUNT
	if prereq PMU; then pmu=1; else pmu=0; fi
	python3 "$TMP/check.py" "$TMP/out" "$pmu" || fail "events JSON"
'
test_expect_success '--pmu skx: another CPU'\''s events with unit masks and modifiers' '
	run 0 "$ARCHSCOPE" events --pmu skx --json INST_RETIRED
	python3 "$TMP/forced.py" "$TMP/out" || fail "--pmu skx"
'
test_expect_success 'LIBPFM_FORCE_PMU=skx: the same' '
	LIBPFM_FORCE_PMU=skx run 0 "$ARCHSCOPE" events --json "inst_ret*"
	python3 "$TMP/forced.py" "$TMP/out" || fail "LIBPFM_FORCE_PMU=skx"
'
test_expect_success 'a perf name finds its libpfm4 event' '
	run 0 "$ARCHSCOPE" events page-faults
	contains "$TMP/out" "PERF_COUNT_SW_PAGE_FAULTS"
'
test_expect_success 'an unknown PMU: the known ones are listed' '
	run 2 "$ARCHSCOPE" events --pmu nosuch_pmu
	contains "$TMP/err" "skx"
'
test_done
