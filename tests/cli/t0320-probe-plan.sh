# probe --plan: what a full probe would run, measuring nothing, on recorded big machines (hwloc's
# topologies in tests/fixtures/topo/) and on this one: every group's steps and predicted time
# within the budget (60 s at 128 CPUs and more, 10 s with --quick), c2c's classes each with the
# pairs measured in it, contexts' team sizes; usage errors for --topology without --plan, a group
# with --plan and a file that is not there.
. "$(dirname "$0")/lib.sh"
check() { # FILE BUDGET: results.plan of $TMP/out
	python3 - "$TMP/out" "$1" "$2" <<'PY' || fail "plan of $1"
import json, sys
p = json.load(open(sys.argv[1]))["results"]["plan"]
budget = float(sys.argv[3])
groups = [s["group"] for s in p["steps"]]
assert groups == ["clock", "line", "caches", "assoc", "tlb", "instr", "contexts", "registers", "timeslice", "c2c"], groups
assert abs(sum(s["predicted_s"] for s in p["steps"]) - p["predicted_s"]) < 1e-6
assert 0 < p["predicted_s"] <= p["predicted_max_s"] <= budget + 1e-6, (p["predicted_s"], p["predicted_max_s"], budget)
assert p["predicted_s"] < p["predicted_all_s"] or p["cpus"] <= 2
c = p["c2c"]
if p["cpus"] >= 2:
    n = min(p["cpus"], 256)
    assert c["pairs"] == n * (n - 1) // 2 and sum(k["total_pairs"] for k in c["classes"]) == c["pairs"]
    seen = set()
    for k in c["classes"]:
        assert k["name"] and len(k["pairs"]) >= 1, k["name"]
        for q in k["pairs"]:
            a, b = q["cpus"]
            assert a != b and q["role"] in ("sample", "verify", "all") and 0 <= q["round"] < c["rounds"]
            seen.add((a, b))
    assert len(seen) == c["measured_pairs"]
t = p["contexts"]["teams"]
assert t[0] == 1 and len(t) < p["contexts"]["all_teams_steps"] + 2  # a size measured twice counts twice
PY
}
fx=$ROOT/tests/fixtures/topo
for f in hwloc-amd-epyc-7763-2s hwloc-amd-opteron-4s-8n hwloc-ibm-power7-8n-smt4 hwloc-intel-i7-1370p-hybrid; do
	test_expect_success "the plan of $f: every group within the budget, full and --quick" "
		run 0 \"\$ARCHSCOPE\" probe --plan --json --topology \"$fx/$f.xml\"
		check $f 60
		run 0 \"\$ARCHSCOPE\" probe --plan --quick --json --topology \"$fx/$f.xml\"
		check $f 10
	"
done
test_expect_success 'the text of a plan names its predictions and the machine' '
	run 0 "$ARCHSCOPE" probe --plan --topology "$fx/hwloc-amd-opteron-4s-8n.xml"
	contains "$TMP/out" "predicted"
	contains "$TMP/out" "machine d=22"
	contains "$TMP/out" " s "
'
test_expect_success 'the plan of this machine counts its allowed CPUs' '
	run 0 "$ARCHSCOPE" probe --plan --json
	test "$(json_get "d[\"results\"][\"plan\"][\"cpus\"]")" = "$(python3 -c "import os; print(len(os.sched_getaffinity(0)))")" ||
		fail "the plan of this machine counts its allowed CPUs"
'
test_expect_success 'usage errors: --topology without --plan, a group with --plan, a missing file' '
	run 2 "$ARCHSCOPE" probe --topology "$fx/hwloc-amd-opteron-4s-8n.xml"
	contains "$TMP/err" "--plan"
	run 2 "$ARCHSCOPE" probe --plan c2c
	contains "$TMP/err" "GROUP"
	run 2 "$ARCHSCOPE" probe --plan --topology "$TMP/missing.xml"
	contains "$TMP/err" "missing.xml"
'
test_done
