# The line with one CPU (issue 35 item 9): under `taskset -c 0` the coherence witness has no second
# core, so the answer rests on the flush witness (x86-64) and says so: a power of two between 32
# and 256 B, method "one witness", a reason naming the missing witness; never "two witnesses".
# With every allowed CPU the method names as many witnesses as answered. `tune gemm` without a
# machine file builds the same probe environment and says when its line rests on one witness.
# Under load a witness may find no contrast: the test then checks the answer says so.
. "$(dirname "$0")/lib.sh"
command -v taskset >/dev/null || skip "needs taskset (util-linux)"
check_line() { # $1: "one" (one CPU) or "all"
	python3 - "$TMP/out" "$1" "$(uname -m)" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
mode, arch = sys.argv[2], sys.argv[3]
l = d["results"]["line"]
v, n, m, why = l["value"], l["witnesses_used"], l["method"], l.get("reason", "")
w = l["witnesses"]
assert v is not None and 32 <= v <= 256 and int(v) & (int(v) - 1) == 0, l
assert n in (0, 1, 2), n
if mode == "one":
    assert w["coherence"]["value"] is None and "two CPUs" in w["coherence"]["reason"], w["coherence"]
    assert n <= 1, n
    if arch == "x86_64":
        f = w["flush"]
        # clflush exists on every x86-64: the flush witness ran; it answers unless it saw no contrast
        assert f["curve"] and len(f["curve"]) == 7, f
        assert f["value"] is not None or "no contrast" in f["reason"], f
        if f["value"] is not None:
            assert n == 1 and v == f["value"], (v, f["value"])
expect = {2: "two witnesses", 1: "one witness"}
if n in expect:
    assert expect[n] in m, m
    if n == 1:
        assert "one witness" in why or "disagree" in why, why
else:
    assert "stride witness only" in why, why
print(f"line {v:.0f} B, {n} witness(es): {m[:60]}")
PY
}
test_expect_success 'one CPU (taskset -c 0): no coherence witness, the answer says what it rests on' '
	run 0 taskset -c 0 "$ARCHSCOPE" probe line --quick --json --seed 3
	check_line one || fail "probe line under taskset -c 0"
'
test_expect_success 'one CPU, text: the witnesses the answer rests on' '
	run 0 taskset -c 0 "$ARCHSCOPE" probe line --quick --seed 3
	contains "$TMP/out" "witnesses the answer rests on"
	if [ "$(uname -m)" = x86_64 ]; then
		grep -q "rests on one witness, the flush witness\|stride witness only" "$TMP/out" || fail "one-CPU answer does not say what it rests on"
	fi
'
test_expect_success 'every allowed CPU: the method names as many witnesses as answered' '
	run 0 "$ARCHSCOPE" probe line --quick --json --seed 3
	check_line all || fail "probe line on every allowed CPU"
'
# tune gemm probes the line in the same environment: its inputs carry the witnesses
test_expect_success GCC 'tune gemm on one CPU: its inputs carry the line'\''s witnesses and a note' '
	run 0 taskset -c 0 "$ARCHSCOPE" tune gemm --short --registers 16 --max-size 16 --reps 1 --json
	python3 - "$TMP/out" <<-\PY || fail "tune gemm inputs"
	import json, sys
	i = json.load(open(sys.argv[1]))["results"]["inputs"]
	assert i["line_witnesses"] <= 1 and i["line_note"], i
	assert i["line_bytes"] in (32, 64, 128, 256), i
	PY
	contains "$TMP/err" "tune gemm: the line size"
'
test_done
