# A probe answer's JSON key is spelled once, in its description (src/machine/probes.h): the keys of
# every answer and every distinctive key of the evidence (one with an underscore), taken from the
# table itself (`machine answers --json`), appear as C string literals ("memory_latency") nowhere in
# src/ outside src/machine/probes.* -- cli renderers, the page and the machine file's readers go
# through the table (MP_KEY, the record). A test case proves the check fails on a copy that spells
# one again.
. "$(dirname "$0")/lib.sh"
run 0 "$ARCHSCOPE" machine answers --json
cp "$TMP/out" "$TMP/answers.json"

cat >"$TMP/check.py" <<'PY'
import glob, json, os, re, sys
answers, src = sys.argv[1], sys.argv[2]
table = json.load(open(answers))["results"]["answers"]
# Words that are probe keys and also other things' keys or labels, each with its reason. Anything
# else found outside the table's module fails.
ALLOWED = {
    # the kernels' and contexts' kinds (probe/kernels.h, probe/contexts.h) name the answers they give
    "fp", "int", "mem",
    # Kerncraft's machine-file key (MK_CLOCK, same module) and the label of clocks everywhere
    "clock",
    # text labels of the probe renderers and other commands' keys: topology, bench, numa, model,
    # cluster, stat and analyze describe their own results (the lead's result schema)
    "line", "size", "latency", "ways", "entries", "pairs", "faults", "stride",
    "bandwidth_gbs", "latency_ns", "latency_cy", "line_bytes", "size_bytes", "clock_ghz", "width_bits",
    "qt_max_x",        # analyze's steps output
    "measured_pairs",  # probe --plan's output (the plan, not an answer)
}
keys = set()
for a in table:
    key = a["path"].split(".")[-1].replace("[]", "")
    if "conditions" in a["path"].split("."):
        continue  # struct conditions' JSON, written for every command by cli/util-conditions.c
    if a["kind"] == "answer" or "_" in key:
        keys.add(key)
bad = []
for path in sorted(glob.glob(os.path.join(src, "**", "*.[ch]"), recursive=True)):
    if re.search(r"/machine/probes\.[ch]$", path):
        continue
    text = open(path, errors="replace").read()
    for m in re.finditer(r'"([A-Za-z0-9_]+)"', text):
        if m.group(1) in keys and m.group(1) not in ALLOWED:
            line = text.count("\n", 0, m.start()) + 1
            bad.append("%s:%d: \"%s\"" % (os.path.relpath(path, src), line, m.group(1)))
for b in bad:
    print(b)
print("%d keys checked" % len(keys), file=sys.stderr)
sys.exit(1 if bad else 0)
PY

test_expect_success 'no probe key string outside src/machine/probes.*' '
	python3 "$TMP/check.py" "$TMP/answers.json" "$ROOT/src" >"$TMP/hits" 2>&1 || { cat "$TMP/hits"; fail "probe keys spelled outside the table"; }
'

test_expect_success 'the check fails on a file that spells a probe key again' '
	mkdir -p "$TMP/src/cli" &&
	printf "void f(struct emit *e) { emit_number(e, \"memory_latency_cy\", NULL, 1, NULL, NULL); }\n" >"$TMP/src/cli/x.c" &&
	! python3 "$TMP/check.py" "$TMP/answers.json" "$TMP/src" >"$TMP/hits" 2>&1 &&
	contains "$TMP/hits" "^cli/x.c:1: \"memory_latency_cy\""
'

test_expect_success 'the key list comes from the table (a row it has, none it lacks)' '
	python3 -c "import json,sys; t=json.load(open(sys.argv[1]))[\"results\"][\"answers\"]; p=[a[\"path\"] for a in t]; sys.exit(0 if \"caches.memory_latency\" in p and \"caches.no_such_key\" not in p else 1)" "$TMP/answers.json" ||
	fail "machine answers does not list caches.memory_latency"
'
test_done
