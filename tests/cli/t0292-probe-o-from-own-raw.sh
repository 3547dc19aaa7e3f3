# probe -o writes its machine file from the typed answers, and --raw saves exactly those: a quick
# `probe -o FILE --raw DIR` on at most two CPUs, then `probe -o AGAIN --from-raw DIR`, give the
# same bytes, and FILE's archscope.probes is DIR/probe-results.json without its evidence. Skips (needs QUIET) when
# machine_check refuses what this run measured. (A level whose ECM fit came out without a positive
# cost beside other work no longer refuses the file: its upstream throughput is written as "not
# measured" and archscope.assumed says why; the unit test machine__probed_file checks that.)
. "$(dirname "$0")/lib.sh"
cpus=$(python3 -c 'import os; print(",".join(str(c) for c in sorted(os.sched_getaffinity(0))[:2]))')
taskset -c "$cpus" "$ARCHSCOPE" probe -o "$TMP/live.yaml" --quick --seed 7 --raw "$TMP/raw" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ "$rc" -eq 1 ] && grep -q "^archscope: error: not writing '$TMP/live.yaml'" "$TMP/err" && [ ! -e "$TMP/live.yaml" ]; then
	skip "needs QUIET (machine_check refused the file this run measured: $(grep -m1 'incomplete' "$TMP/err" | sed 's/.*: incomplete/incomplete/'))"
fi
[ "$rc" -eq 0 ] || { cat "$TMP/err" >&2; fail "probe -o --quick --raw exited $rc"; }
test_expect_success '--raw saved probe-results.json and benchmarks.json' '
[ -s "$TMP/raw/probe-results.json" ] && [ -s "$TMP/raw/benchmarks.json" ] || fail "--raw saved no probe-results.json or benchmarks.json"
'
test_expect_success 'probe -o --from-raw of the run own --raw writes the same bytes' '
run 0 "$ARCHSCOPE" probe -o "$TMP/again.yaml" --from-raw "$TMP/raw"
cmp "$TMP/live.yaml" "$TMP/again.yaml" || fail "probe -o --from-raw of the run'\''s own --raw wrote another file"
'
test_expect_success 'the archscope.probes of the machine file are probe-results.json less its evidence' '
run 0 "$ARCHSCOPE" machine answers --json
cp "$TMP/out" "$TMP/answers.json"
run 0 "$ARCHSCOPE" machine show --json "$TMP/live.yaml"
python3 - "$TMP" <<'\''PY'\'' || fail "the machine file'\''s archscope.probes is not probe-results.json (its evidence aside)"
import json, math, sys
tmp = sys.argv[1]
live = json.load(open(tmp + "/out"))["results"]["machine"]["archscope"]["probes"]
saved = json.load(open(tmp + "/raw/probe-results.json"))
# the evidence (curves, how each answer was measured) is in probe-results.json, not in the file
evidence = {a["path"].replace("[]", "") for a in json.load(open(tmp + "/answers.json"))["results"]["answers"]
            if a["evidence"]}
def answers(o, path=""):
    if isinstance(o, dict):
        return {k: answers(v, path + "." + k if path else k) for k, v in o.items()
                if (path + "." + k if path else k) not in evidence}
    if isinstance(o, list):
        return [answers(v, path) for v in o]
    return o
saved = answers(saved)
def close(x, y):  # the file keeps 10 digits
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(close(x[k], y[k]) for k in x)
    if isinstance(x, list) and isinstance(y, list):
        return len(x) == len(y) and all(close(u, v) for u, v in zip(x, y))
    if isinstance(x, float) or isinstance(y, float):
        return x is not None and y is not None and math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)
    return x == y
sys.exit(0 if close(live, saved) else 1)
PY
'
test_done
