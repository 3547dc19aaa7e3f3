# stat --regions on a program of known regions (examples/regions/known.c, archscope-marker.h): in
# each of 2 threads "outer" once around "short" 10 times (10 ms of CPU each) and "long" 5 times
# (40 ms each), then "sleep" 4 times (25 ms asleep). Calls are exact; CPU time (task-clock) is in
# the known 1:2 ratio whatever the load; wall time only has lower bounds (the machine is loaded).
. "$(dirname "$0")/lib.sh"
KNOWN="$(dirname "$ARCHSCOPE")/examples/regions-known"
[ -x "$KNOWN" ] || fail "no $KNOWN (built by CMake from examples/regions/)"
cat >"$TMP/check.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["results"]
reg = {r["name"]: r for r in d["regions"]}
assert [r["name"] for r in d["regions"]] == ["outer", "short", "long", "sleep"], d["regions"]
for name, calls in (("outer", 2), ("short", 20), ("long", 10), ("sleep", 8)):
    r = reg[name]
    assert r["calls"] == calls and r["threads"] == 2 and r["runs"] == 2 and r["unfinished"] == 0, r
    assert r["time_s_min"] <= r["time_s"] <= r["time_s_max"], r
    # a thread's CPU time in a region is never more than its wall time there (1 ms of slack: two clocks)
    assert r["events"]["task-clock"] / 1e9 <= r["time_s"] * 1.01 + 0.001, r
tc = lambda n: reg[n]["events"]["task-clock"] / 1e9
assert 0.19 <= tc("short") and 0.39 <= tc("long"), (tc("short"), tc("long"))
assert 1.6 <= tc("long") / tc("short") <= 2.6, tc("long") / tc("short")
# nesting: the outer region holds both inner ones, in time and in every count
assert reg["outer"]["time_s"] >= reg["short"]["time_s"] + reg["long"]["time_s"]
for ev, v in reg["outer"]["events"].items():
    if v is not None:
        assert v >= reg["short"]["events"][ev] + reg["long"]["events"][ev], ev
# asleep: at least 8 x 25 ms, next to no CPU
assert reg["sleep"]["time_s"] >= 0.2 and tc("sleep") < 0.1 * reg["sleep"]["time_s"], reg["sleep"]
m = d["region_marks"]
units = {e["name"]: e["unit"] for e in m.pop("counters")}
assert units["task-clock"] == "ns" and units["page-faults"] == "events", units
assert m == {"records": 2, "partial": 0, "unmatched": 0, "refused": 0}, m
PY
test_expect_success 'calls, threads and the 1:2 CPU time of known regions; nesting; sleep without CPU' '
	run 0 "$ARCHSCOPE" stat -q -r 2 --regions --json -o "$TMP/j.json" -- "$KNOWN" 2
	python3 "$TMP/check.py" "$TMP/j.json" || fail "regions"
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/j.json" stat
'
test_expect_success 'the described regions: a row without calls, or a unit that is not text, is refused by its path' '
	run 0 "$ARCHSCOPE" stat -q -r 1 --regions --json -o "$TMP/d.json" -- "$KNOWN" 1
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/d.json" stat
	contains "$TMP/out" "stat results as described"
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); del d[\"results\"][\"regions\"][1][\"calls\"]; json.dump(d,open(sys.argv[2],\"w\"))" "$TMP/d.json" "$TMP/bad1.json"
	run 1 "$ARCHSCOPE" machine schema --check "$TMP/bad1.json" stat
	contains "$TMP/err" "regions\[1\].calls: missing"
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d[\"results\"][\"region_marks\"][\"counters\"][0][\"unit\"]=1; json.dump(d,open(sys.argv[2],\"w\"))" "$TMP/d.json" "$TMP/bad2.json"
	run 1 "$ARCHSCOPE" machine schema --check "$TMP/bad2.json" stat
	contains "$TMP/err" "region_marks.counters\[0\].unit"
'
test_expect_success 'text: a table of the regions with their units' '
	run 0 "$ARCHSCOPE" stat -r 1 --regions -- "$KNOWN" 1
	contains "$TMP/err" "^regions (per run"
	grep -E "^  long +5 +[0-9.]+ (s|ms) +1 +[0-9.]+ ms " "$TMP/err" >/dev/null || { cat "$TMP/err" >&2; fail "no row for long"; }
	contains "$TMP/err" "<not counted>\|instructions"
'
test_expect_success 'the program alone, without archscope: the markers do nothing' '
	run 0 "$KNOWN" 1
	run 0 "$KNOWN" names a b
'
test_expect_success 'a name is data: spaces, quotes, %, $(...) and a newline come back as given; an end without its begin is counted' '
	run 0 "$ARCHSCOPE" stat -q -r 1 --regions --json -o "$TMP/n.json" -- "$KNOWN" names "a b" "100%" "\$(touch $TMP/pwned)" "$(printf "x\ny")" "\"q\""
	[ ! -e "$TMP/pwned" ] || fail "a name ran"
	python3 - "$TMP/n.json" <<-\PY || fail "names"
	import json, sys
	d = json.load(open(sys.argv[1]))["results"]
	names = [r["name"] for r in d["regions"]]
	assert names[0] == "a b" and names[1] == "100%" and names[2].startswith("$(touch ") and names[3] == "x\ny" and names[4] == "\"q\"", names
	assert all(r["calls"] == 1 for r in d["regions"]), d["regions"]
	assert d["region_marks"]["unmatched"] == 1, d["region_marks"]
	PY
'
test_expect_success 'a program that marks nothing: no regions, and the text says why' '
	run 0 "$ARCHSCOPE" stat -r 1 --regions -- true
	contains "$TMP/err" "none: the program called no marker"
	run 0 "$ARCHSCOPE" stat -q -r 1 --regions --json -o "$TMP/e.json" -- true
	[ "$(json_get "len(d[\"results\"][\"regions\"]), d[\"results\"][\"region_marks\"][\"records\"]" "$TMP/e.json")" = "0 0" ] || fail "regions of true"
'
test_expect_success 'usage: --regions needs a program started (not -p, -a) and text or JSON (not -x)' '
	run 2 "$ARCHSCOPE" stat --regions -p $$
	contains "$TMP/err" "regions counts a program it starts"
	run 2 "$ARCHSCOPE" stat --regions -a -- true
	run 2 "$ARCHSCOPE" stat --regions -x , -- true
	contains "$TMP/err" "not -x"
'
test_done
