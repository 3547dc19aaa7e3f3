# Every probe answer and its evidence come from the one description (src/machine/probes.h, listed
# by `machine answers`): a quick `probe --json --raw DIR` on at most two CPUs prints every described
# entry at its path with its unit (those omitted when none may be absent), and no answer the
# description lacks; DIR/probe-results.json holds the same values; a file from a recorded run's
# probe-results.json (tests/fixtures) holds every described answer (evidence is not written there)
# under archscope.probes and the Kerncraft keys derived from them. (t0292: a live probe -o file is
# its own --raw's.)
. "$(dirname "$0")/lib.sh"
root=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
run 0 "$ARCHSCOPE" machine answers --json
cp "$TMP/out" "$TMP/answers.json"
cpus=$(python3 -c 'import os; print(",".join(str(c) for c in sorted(os.sched_getaffinity(0))[:2]))')
run 0 taskset -c "$cpus" "$ARCHSCOPE" probe --quick --json --seed 7 --raw "$TMP/raw"
cp "$TMP/out" "$TMP/probe.json"
run 0 "$ARCHSCOPE" probe -o "$TMP/m.yaml" --from-raw "$root/tests/fixtures/kvm-xeon-6-207/probe-o"
run 0 "$ARCHSCOPE" machine show --json "$TMP/m.yaml"
cp "$TMP/out" "$TMP/file.json"
python3 - "$TMP" <<'PY' || fail "the answers and the description disagree (above)"
import json, math, sys
tmp = sys.argv[1]
table = json.load(open(tmp + "/answers.json"))["results"]["answers"]
results = json.load(open(tmp + "/probe.json"))["results"]
saved = json.load(open(tmp + "/raw/probe-results.json"))
machine = json.load(open(tmp + "/file.json"))["results"]["machine"]
paths = {a["path"]: a for a in table}
bad = []

def up(path):
    """path and the paths of the entries above it, without the [] of tables"""
    parts = path.replace("[]", "").split(".")
    return [".".join(parts[:i]) for i in range(len(parts), 0, -1)]

plain = {p.replace("[]", ""): a for p, a in paths.items()}
def flagged(path, flag):
    return any(plain[q].get(flag) for q in up(path) if q in plain)

def lookup(doc, path):
    """The values at a path ("caches.levels[].size"): one per row of every table on the way;
    a null object or an empty table on the way gives nothing to check."""
    vals = [doc]
    for part in path.split("."):
        table_part = part.endswith("[]")
        key = part[:-2] if table_part else part
        nxt = []
        for v in vals:
            if v is None:
                continue
            if not isinstance(v, dict) or key not in v:
                return None
            w = v[key]
            nxt.extend(w if table_part and isinstance(w, list) else [w])
        vals = nxt
    return vals

def is_answer(o):
    return isinstance(o, dict) and {"value", "unit", "confidence", "method", "os_reported"} <= set(o)

# 1. every described entry is in probe --json, answers with the description's unit
for a in table:
    vals = lookup(results, a["path"])
    if vals is None and flagged(a["path"], "omitted_when_none"):
        continue
    if vals is None:
        bad.append("probe --json has no " + a["path"])
        continue
    for v in vals:
        if a["kind"] == "answer" and v is not None and (not is_answer(v) or v["unit"] != a["unit"]):
            bad.append("%s: not an answer in %s: %r" % (a["path"], a["unit"], v))

# 2. every answer in probe --json is described
def walk(o, path):
    if is_answer(o) and path not in paths:
        bad.append("an answer the description lacks: " + path)
    if isinstance(o, dict):
        for k, v in o.items():
            walk(v, path + "." + k if path else k)
    elif isinstance(o, list):
        for v in o:
            walk(v, path + "[]")
walk(results, "")

# 3. probe-results.json holds the same values as probe --json at every described leaf
def same(x, y):
    if isinstance(x, float) or isinstance(y, float):
        return x is not None and y is not None and math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)
    return x == y
for a in table:
    if a["kind"] in ("object", "table"):
        continue
    x, y = lookup(results, a["path"]), lookup(saved, a["path"])
    if x is None and y is None and flagged(a["path"], "omitted_when_none"):
        continue
    if x is None or y is None or len(x) != len(y):
        bad.append("%s: probe --json %r, probe-results.json %r" % (a["path"], x, y))
        continue
    for u, v in zip(x, y):
        if a["kind"] == "answer" and u is not None and v is not None:
            u, v = u["value"], v["value"]
        if a["kind"] == "matrix" and u is not None and v is not None:
            u, v = sum(u, []), sum(v, [])
            if len(u) != len(v) or not all(same(p, q) for p, q in zip(u, v)):
                bad.append("%s differs" % a["path"])
            continue
        if not same(u, v):
            bad.append("%s: probe --json %r, probe-results.json %r" % (a["path"], u, v))

# 4. a file from a recorded run: every described entry under archscope.probes, the Kerncraft keys beside
probes = machine["archscope"]["probes"]
for a in table:
    if flagged(a["path"], "evidence"):
        if lookup(probes, a["path"]) not in (None, []):
            bad.append("the machine file has evidence: " + a["file_key"])
        continue
    if lookup(probes, a["path"]) is None:
        bad.append("the machine file has no " + a["file_key"])
    if a["kerncraft"] and a["kerncraft"] not in machine:
        bad.append("the machine file has no Kerncraft key '%s' (from %s)" % (a["kerncraft"], a["path"]))

for b in bad:
    print(b, file=sys.stderr)
print("%d described entries checked in probe --json, probe-results.json and a machine file" % len(table))
sys.exit(1 if bad else 0)
PY
exit 0
