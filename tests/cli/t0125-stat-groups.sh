# stat -M reads a metric group from share/groups (data, not code) and computes its metrics;
# --all counts every software event and lists every hardware one (counted, or why not).
. "$(dirname "$0")/lib.sh"
cat >"$TMP/check.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["results"]
assert d["group"] == "BRANCH" and d["group_events"] in ("intel", "amd", "generic"), d.get("group")
names = [m["name"] for m in d["metrics"]]
assert "Branch misprediction ratio" in names, names
for m in d["metrics"]:
    assert m["formula"]
ev = {e["name"]: e for e in d["events"]}
# metrics come from counted events only: a metric over an event not counted is null, never 0
for m in d["metrics"]:
    assert m["value"] is None or m["value"] >= 0
PY
cat >"$TMP/all.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["results"]
ev = d["events"]
perf = [e for e in ev if e["source"].startswith("perf")]
sw = [e for e in perf if e["source"] == "perf software"]
assert len(sw) >= 8 and all(e["n"] == 1 for e in sw), [(e["name"], e["n"]) for e in sw]
hw = [e for e in perf if e["source"] == "perf hardware" or not e["available"]]
assert hw, "no hardware events listed"
for e in hw:
    assert e["n"] >= 1 or (e["reason"] and all(v is None for v in e["values"])), e
# nothing multiplexed silently: a scaled event is flagged and its share is below 1
for e in perf:
    if e["multiplexed"]:
        assert any(s is not None and s < 1 for s in e["running_share"])
assert d["passes"] >= 1
PY
test_expect_success '-M branch: the group'\''s metrics from counted events only' '
	run 0 "$ARCHSCOPE" stat -q -r 2 -M branch --json -o "$TMP/j.json" -- true
	python3 "$TMP/check.py" "$TMP/j.json" || fail "-M branch"
'
test_expect_success 'an unknown group: the known ones are listed' '
	run 2 "$ARCHSCOPE" stat -q -M nosuchgroup -- true
	contains "$TMP/err" "FLOPS"
'
test_expect_success 'the groups are data in share/groups' '
	for g in FLOPS MEM L2 L3; do
		[ -s "$ROOT/share/groups/$g.txt" ] || fail "no share/groups/$g.txt"
	done
'
test_expect_success '--all: every software event counted, every hardware one listed, nothing multiplexed silently' '
	run 0 "$ARCHSCOPE" stat -q -r 1 --all --json -o "$TMP/j.json" -- true
	python3 "$TMP/all.py" "$TMP/j.json" || fail "--all"
'
test_done
