# stat --regions -e (issue 51 item 1): each region counts the events the user names, not the
# default set: the marker library reads them from $ARCHSCOPE_MARKER_EVENTS, which stat sets from
# -e after encoding each name (examples/regions/known.c: "long" has twice the CPU time of "short").
# An event this machine does not know, or more than a region can count, is exit 2 before the
# program runs (stat alone shows such an event as <not counted>).
. "$(dirname "$0")/lib.sh"
KNOWN="$(dirname "$ARCHSCOPE")/examples/regions-known"
[ -x "$KNOWN" ] || fail "no $KNOWN (built by CMake from examples/regions/)"
cat >"$TMP/check.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["results"]
m = d["region_marks"]
assert [(c["name"], c["unit"]) for c in m["counters"]] == [("page-faults", "events"), ("task-clock", "ns")], m
reg = {r["name"]: r for r in d["regions"]}
for r in d["regions"]:
    assert sorted(r["events"]) == ["page-faults", "task-clock"], r
tc = lambda n: reg[n]["events"]["task-clock"] / 1e9
assert 0.19 <= tc("short") and 1.6 <= tc("long") / tc("short") <= 2.6, (tc("short"), tc("long"))
assert reg["sleep"]["events"]["task-clock"] / 1e9 < 0.1 * reg["sleep"]["time_s"], reg["sleep"]
PY
test_expect_success '-e page-faults,task-clock: the regions count those two, in that order, with their units' '
	run 0 "$ARCHSCOPE" stat -q -r 2 --regions -e page-faults,task-clock --json -o "$TMP/j.json" -- "$KNOWN" 2
	python3 "$TMP/check.py" "$TMP/j.json" || fail "regions with -e"
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/j.json" stat
'
test_expect_success 'text: the table has the -e events as its columns' '
	run 0 "$ARCHSCOPE" stat -r 1 --regions -e context-switches -- "$KNOWN" 1
	grep -E "^  region +calls +time +threads +context-switches *$" "$TMP/err" >/dev/null || { cat "$TMP/err" >&2; fail "columns"; }
'
test_expect_success 'an unknown event, a name with a space, 17 events: exit 2, the program never runs' '
	run 2 "$ARCHSCOPE" stat -r 1 --regions -e task-clock,no-such-event -- sh -c ": >$TMP/ran"
	contains "$TMP/err" "no-such-event"
	run 2 "$ARCHSCOPE" stat -r 1 --regions -e "task clock" -- sh -c ": >$TMP/ran"
	many=$(python3 -c "print(\",\".join([\"task-clock\", \"page-faults\", \"context-switches\", \"cpu-migrations\", \"minor-faults\", \"major-faults\", \"alignment-faults\", \"emulation-faults\", \"cpu-clock\", \"dummy\"] + [\"r%x\" % i for i in range(1, 8)]))")
	run 2 "$ARCHSCOPE" stat -r 1 --regions -e "$many" -- sh -c ": >$TMP/ran"
	contains "$TMP/err" "at most 16"
	[ ! -e "$TMP/ran" ] || fail "the program ran after a usage error"
'
test_done
