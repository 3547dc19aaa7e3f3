# Every key stat, regress, phases, memhist, events and compare write with --json is described, with its kind, and
# every key their description requires is written (machine/result-stat*.h, read here from the
# X-macro rows); a stat result round-trips through compare's reader, which names the path of a
# key a file holds wrongly (issue 48).
. "$(dirname "$0")/lib.sh"
cat >"$TMP/described.py" <<'PY'
import json, re, sys, glob, os
root, name, path = sys.argv[1:4]
rows = {}
for h in glob.glob(os.path.join(root, "src/machine/result-*.h")):
    for m in re.finditer(r'X\((\w+), (\w+), (\w+), "([^"]*)", "([^"]*)", ([\w| ]+),', open(h).read()):
        rows.setdefault(os.path.basename(h), []).append(m.groups())
by_name = {}
for h, rs in rows.items():
    src = open(os.path.join(root, "src/machine", h[:-2] + ".c")).read()
    by_name[re.search(r'SCHEMA_DEFINE\(\w+, "([^"]+)"', src).group(1)] = rs
def children(rs, parent):
    return {k: (i, kind, flags) for i, p, kind, k, unit, flags in rs if p == parent or (parent.endswith("ROOT") and p.endswith("_ROOT"))}
num = lambda v: v is None or (isinstance(v, (int, float)) and not isinstance(v, bool))
kinds = {
    "TEXT": lambda v: isinstance(v, str), "INT": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "NUMBER": num, "BOOL": lambda v: isinstance(v, bool), "NUMBERS": lambda v: isinstance(v, list) and all(map(num, v)),
    "MATRIX": lambda v: isinstance(v, list) and all(isinstance(r, list) and all(map(num, r)) for r in v),
    "NUMMAP": lambda v: isinstance(v, dict) and all(map(num, v.values())),
    "OBJECT": lambda v: isinstance(v, dict), "ROWS": lambda v: isinstance(v, list), "MAP": lambda v: isinstance(v, dict),
    "REF": lambda v: isinstance(v, dict),
}
def check(rs, parent, obj, where, open_=False):
    kids = children(rs, parent)
    for k, v in obj.items():
        if k not in kids and open_:  # SCHEMA_OPEN: keys that are data (memhist's data sources)
            continue
        assert k in kids, f"{where}{k}: written, not described"
        i, kind, flags = kids[k]
        if v is None:
            assert kind == "NUMBER" or "SCHEMA_NULL" in flags, f"{where}{k}: null, not described so"
            continue
        assert kinds[kind](v), f"{where}{k}: not a {kind}"
        if kind == "OBJECT":
            check(rs, i, v, f"{where}{k}.", "SCHEMA_OPEN" in flags)
        elif kind == "ROWS":
            for n, row in enumerate(v):
                check(rs, i, row, f"{where}{k}[{n}].", "SCHEMA_OPEN" in flags)
        elif kind == "MAP":
            for mk, row in v.items():
                check(rs, i, row, f"{where}{k}{{{mk}}}.", "SCHEMA_OPEN" in flags)
        elif kind == "REF":
            unit = [r[4] for r in rs if r[0] == i][0]
            check(by_name[unit], "ROOT", v, f"{where}{k}.")
    for k, (i, kind, flags) in kids.items():
        assert k in obj or "SCHEMA_OPT" in flags, f"{where}{k}: described, not written"
d = json.load(open(path))
assert d["command"] == name.split()[0], d["command"]
check(by_name[name], "ROOT", d["results"], "")
PY
described() { python3 "$TMP/described.py" "$ROOT" "$1" "$2"; }

test_expect_success 'stat --json: every key described, and read back by compare' '
	run 0 "$ARCHSCOPE" stat -q -r 2 --json -o "$TMP/a.json" -- true &&
	described stat "$TMP/a.json" &&
	run 0 "$ARCHSCOPE" compare -q --json "$TMP/a.json" "$TMP/a.json" &&
	described compare "$TMP/out"
'
test_expect_success 'stat --per-thread and -I: threads and intervals described' '
	run 0 "$ARCHSCOPE" stat -q -r 2 --per-thread -e task-clock,page-faults -o "$TMP/t.json" -- sh -c true &&
	described stat "$TMP/t.json" &&
	run 0 "$ARCHSCOPE" stat -q -I 5 -e task-clock --json -o "$TMP/i.json" -- sleep 0.02 &&
	described stat "$TMP/i.json" &&
	run 0 "$ARCHSCOPE" compare -q "$TMP/t.json" "$TMP/i.json"
'
test_expect_success 'regress --json: every key described' '
	run 0 "$ARCHSCOPE" regress -q --param N=1,2,3 -r 2 -e task-clock -o "$TMP/r.json" -- sh -c "true {N}" &&
	described regress "$TMP/r.json"
'
test_expect_success 'phases --json: every key described' '
	run 0 "$ARCHSCOPE" phases -q --interval 5 -o "$TMP/p.json" -- sleep 0.3 &&
	described phases "$TMP/p.json"
'
test_expect_success 'memhist --json: every key described' '
	run 0 "$ARCHSCOPE" memhist --json --from "$ROOT/tests/fixtures/measure/memhist-amd.jsonl" &&
	described memhist "$TMP/out" &&
	run 0 "$ARCHSCOPE" memhist --json --mode cost --from "$ROOT/tests/fixtures/measure/memhist-intel.jsonl" &&
	described memhist "$TMP/out"
'
test_expect_success 'events --json: every key described' '
	run 0 "$ARCHSCOPE" events --json &&
	described events "$TMP/out"
'
test_expect_success 'compare -r --json: every key described' '
	run 0 "$ARCHSCOPE" compare -q -r 2 -e page-faults -o "$TMP/c.json" -- true -- true &&
	described compare "$TMP/c.json"
'
test_expect_success 'compare names the path of a key a stat result holds wrongly (exit 2)' '
	run 0 "$ARCHSCOPE" stat -q -r 2 -e task-clock -o "$TMP/a.json" -- true &&
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); d[\"results\"][\"runs_detail\"][1][\"conditions\"][\"cpus\"] = \"x\"; json.dump(d, open(sys.argv[2], \"w\"))" "$TMP/a.json" "$TMP/bad.json" &&
	run 2 "$ARCHSCOPE" compare "$TMP/a.json" "$TMP/bad.json" &&
	contains "$TMP/err" "bad.json.: results.runs_detail\[1\].conditions.cpus: a value where an integer is described" &&
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); d[\"results\"][\"speed\"] = 1; json.dump(d, open(sys.argv[2], \"w\"))" "$TMP/a.json" "$TMP/extra.json" &&
	run 2 "$ARCHSCOPE" compare "$TMP/extra.json" "$TMP/a.json" &&
	contains "$TMP/err" "results.speed: a key the description does not name"
'
test_done
