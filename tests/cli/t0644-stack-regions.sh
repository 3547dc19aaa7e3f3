# stack --regions (issue 51 item 1): the speedup stack of each region a program marks, on a program
# of known regions (examples/regions/stack.c): "lock", where 2 threads take turns at a pthread spin
# lock held 1 ms at a time (the other spins), and "work", where each computes alone. What holds
# under any load: at N = 2 "lock" spins for a real part of its time and "work" hardly waits at all
# (whatever other programs take of the CPUs is scheduling, never a wait); every stack sums to 1;
# at N = 1 nothing contends. The JSON is the described "region stack" (machine schema --check).
. "$(dirname "$0")/lib.sh"
PROG="$(dirname "$ARCHSCOPE")/examples/regions-stack"
[ -x "$PROG" ] || fail "no $PROG (built by CMake from examples/regions/)"
cat >"$TMP/check.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["results"]
st = {(r["name"], r["threads"]): r for r in d["region_stacks"]}
assert sorted(st) == [("lock", 1), ("lock", 2), ("work", 1), ("work", 2)], sorted(st)
for r in d["region_stacks"]:
    assert abs(sum(r["shares"].values()) - 1) < 1e-6, r
    assert all(0 <= v <= 1 for v in r["shares"].values()), r
    assert r["runs"] == 2 and r["region_threads"] == r["threads"], r
    assert r["times_s"]["cpu"] <= r["thread_s"] * 1.01 + 0.002, r
lock, work = st[("lock", 2)], st[("work", 2)]
# 40 x 1 ms held by each of 2 threads: the lock's turns take 80 ms of CPU; its waiter spins
assert lock["times_s"]["pthread_spin"] >= 0.02, lock
# the largest wait; under load scheduling (other programs' CPU) may be larger, never a wait
assert lock["shares"]["spinning"] >= 0.15, lock
assert lock["shares"]["spinning"] > max(lock["shares"][k] for k in ("yielding", "blocked_other", "imbalance")), lock
assert lock["dominant"] in ("spinning", "scheduling"), lock
assert work["shares"]["spinning"] + work["shares"]["yielding"] < 0.05, work
assert work["shares"]["spinning"] < lock["shares"]["spinning"] - 0.1, (work, lock)
assert work["times_s"]["cpu"] >= 0.19, work  # 2 x 100 ms of CPU
one = st[("lock", 1)]
assert one["shares"]["spinning"] < 0.05, one
reg = {r["name"]: r for r in d["regions"]}
assert reg["lock"]["calls"] == 1.5 and reg["work"]["calls"] == 1.5, reg  # 1 call at N = 1, 2 at N = 2
PY
test_expect_success 'the lock region spins, the work region does not; every stack sums to 1; described' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 2 --regions --json -- "$PROG" {T} 100
	cp "$TMP/out" "$TMP/j.json"
	python3 "$TMP/check.py" "$TMP/j.json" || fail "region stacks"
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/j.json" stack
	contains "$TMP/out" "stack results as described"
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); del d[\"results\"][\"region_stacks\"][0][\"shares\"]; json.dump(d,open(sys.argv[2],\"w\"))" "$TMP/j.json" "$TMP/bad.json"
	run 1 "$ARCHSCOPE" machine schema --check "$TMP/bad.json" stack
	contains "$TMP/err" "region_stacks\[0\].shares: missing"
'
test_expect_success 'text: the table of region stacks after the program'\''s stacks' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --regions -- "$PROG" {T} 20
	contains "$TMP/out" "^region stacks (each region"
	grep -E "^  lock +2 " "$TMP/out" >/dev/null || { cat "$TMP/out" >&2; fail "no row for lock at N = 2"; }
	contains "$TMP/out" "^regions (per run"
'
test_expect_success 'without --regions: no region keys; a program that marks nothing: none, said so' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- "$PROG" {T} 10
	[ "$(json_get "\"region_stacks\" in d[\"results\"] or \"regions\" in d[\"results\"]")" = False ] || fail "region keys without --regions"
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --regions -- /bin/true
	contains "$TMP/out" "none: the program called no marker"
'
test_done
