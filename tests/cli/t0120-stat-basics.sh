# stat runs a program R times with software events: per-run values, Bessel stddev, hardware
# events never read as 0, exit status and crash reported, JSON names of the issue.
. "$(dirname "$0")/lib.sh"
run 0 "$ARCHSCOPE" stat --json -o "$TMP/j.json" -q -r 3 -e page-faults,task-clock,cycles -- sh -c 'echo out; echo oops >&2'
cp "$TMP/out" "$TMP/prog.out"; cp "$TMP/err" "$TMP/prog.err"
test_expect_success 'the program'"'"'s stdout and stderr are its own' '
	contains "$TMP/prog.err" oops
	contains "$TMP/prog.out" out # the program'"'"'s stdout is its own
	! grep -q oops "$TMP/prog.out" || fail "the program'"'"'s stderr went to stdout"
'
cat >"$TMP/check.py" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))["results"]
ev = {e["name"]: e for e in d["events"]}
for e in d["events"]:
    for k in ("name", "unit", "values", "mean", "stddev", "n", "available", "reason"):
        assert k in e, (e["name"], k)
pf = ev["page-faults"]
assert pf["available"] and pf["n"] == 3 and len(pf["values"]) == 3, pf
assert all(v > 0 for v in pf["values"]), pf
m = sum(pf["values"]) / 3
assert abs(pf["mean"] - m) < 1e-9 * m
sd = math.sqrt(sum((v - m) ** 2 for v in pf["values"]) / 2)
assert abs(pf["stddev"] - sd) <= 1e-9 * max(sd, 1), (pf["stddev"], sd)
assert pf["min"] == min(pf["values"]) and pf["max"] == max(pf["values"])
assert ev["task-clock"]["unit"] == "ns" and ev["task-clock"]["mean"] > 0
cy = ev["cycles"]
if not cy["available"] or cy["n"] == 0:
    # not counted is missing, never 0, and says why
    assert all(v is None for v in cy["values"]) and cy["mean"] is None and cy["reason"], cy
    assert d["hardware_reason"], d["hardware_reason"]
else:
    assert all(v is None or v > 0 for v in cy["values"])
assert ev["rusage:minor-faults"]["n"] == 3 and ev["wall-time"]["mean"] > 0
runs = d["runs_detail"]
assert len(runs) == 3 and all(r["exited"] and r["exit_status"] == 0 for r in runs)
assert all("oops" in r["stderr"] for r in runs)
PY
test_expect_success '-o: the JSON names of the issue, per-run values, Bessel stddev, a hardware event never 0' '
	json_get "d[\"command\"]" "$TMP/j.json" | grep -qx stat || fail "command"
	python3 "$TMP/check.py" "$TMP/j.json" || fail "stat JSON"
'

# text (on stderr, as perf stat): <not counted> for an event that cannot open, never a 0
test_expect_success 'text on stderr: <not counted> for an event that cannot open, never a 0' '
	run 0 "$ARCHSCOPE" stat -q -r 2 -e page-faults,no_such_event_xyz -- true
	[ -s "$TMP/out" ] && fail "stat wrote on stdout, which is the program'"'"'s"
	grep no_such_event_xyz "$TMP/err" | grep -q "<not counted>" || fail "unknown event not shown as <not counted>"
'
test_done
