# probe c2c by topology class: the classes cover every pair, the pairs measured are listed with
# their roles, the matrices are filled (positive, symmetric); --all-pairs measures every pair with
# its own figures. Trees are not compared here: on a machine with more than two CPUs they depend
# on noise (tests/unit/u-probe-plan.c compares them on models of machines). Skipped with fewer
# than two allowed CPUs.
. "$(dirname "$0")/lib.sh"
[ "$(python3 -c 'import os; print(len(os.sched_getaffinity(0)))')" -ge 2 ] || skip "c2c needs two CPUs"
test_expect_success 'by class: the classes cover every pair, the pairs measured are listed, the matrices filled and symmetric' '
run 0 "$ARCHSCOPE" probe c2c --quick --json
python3 - "$TMP/out" <<'\''PY'\'' || fail "c2c by class"
import json, sys
c = json.load(open(sys.argv[1]))["results"]["c2c"]
n = len(c["cpus"])
pairs = n * (n - 1) // 2
# by class, or every pair where the round robin is predicted to take less time (a small SMT machine)
assert c["mode"] == "classes" or (c["all_pairs_chosen"] and c["mode"] == "all_pairs")
roles = ("sample", "verify", "split") if c["mode"] == "classes" else ("all",)
assert sum(k["pairs"] for k in c["classes"] if not k["split"]) == pairs
used = {k["name"] for k in c["classes"] if not k["split"]}
assert all(k["measured"] >= 1 for k in c["classes"] if not k["split"])
m = c["measured_pairs"]
assert len(m) == c["pairs_measured"] and 1 <= len(m) <= pairs
for p in m:
    a, b = p["cpus"]
    assert a in c["cpus"] and b in c["cpus"] and a != b
    assert p["role"] in roles and p["class"] in used
    assert p["latency_ns"] > 0 and p["bandwidth_gbs"] is None or p["bandwidth_gbs"] > 0
for mat in (c["bandwidth_gbs"], c["latency_ns"]):
    for i in range(n):
        for j in range(n):
            assert (mat[i][j] is None) == (i == j) and (i == j or mat[i][j] > 0 and mat[i][j] == mat[j][i])
assert len(c["step_seconds"]["blocks"]) == len(c["blocks"]) and c["steps"] >= 1
assert sorted(c["tree"]["nodes"][0]["cpus"]) == sorted(c["cpus"])
PY
'
test_expect_success '--all-pairs measures every pair in round-robin rounds' '
run 0 "$ARCHSCOPE" probe c2c --quick --all-pairs --json
python3 - "$TMP/out" <<'\''PY'\'' || fail "c2c --all-pairs"
import json, sys
c = json.load(open(sys.argv[1]))["results"]["c2c"]
n = len(c["cpus"])
assert c["mode"] == "all_pairs" and not c["all_pairs_chosen"] and c["pairs_measured"] == n * (n - 1) // 2
assert all(p["role"] == "all" for p in c["measured_pairs"])
assert c["rounds"] == (n - 1 if n % 2 == 0 else n) and c["skipped_blocks"] == 0
PY
'
test_expect_success 'the text names the classes and what was measured' '
run 0 "$ARCHSCOPE" probe c2c --quick
contains "$TMP/out" "classes of pairs"
contains "$TMP/out" "measured"
'
test_done
