# whatif on a process tree with a known answer (examples/whatif/pipeline.c): a parent (slow stage)
# feeds a forked child (fast stage, half the work an item) through a pipe. The delays cross
# processes through the shared delay count: the child's samples pause the parent, so the fast stage
# does not look like a win, and the slow stage's curve rises (to 1/2). Always (any load): both
# processes shared the delays, both stages are sites with samples in them when sped up; the shapes
# on a quiet machine (QUIET), as in t0601.
. "$(dirname "$0")/lib.sh"
EX=$(dirname "$ARCHSCOPE")
[ -x "$EX/whatif-pipeline" ] || skip "needs the whatif examples beside $ARCHSCOPE"
"$ARCHSCOPE" whatif -q --json --sites 2 --speedups 0.5,1 --rounds 3 -- "$EX/whatif-pipeline" >"$TMP/w.json" 2>"$TMP/w.err"
echo $? >"$TMP/w.rc"
pt() { json_get "[ (p[\"program_speedup\"], p[\"ci\"], p[\"site_samples\"]) for s in d[\"results\"][\"sites\"] if \"$1\" in s[\"site\"] for p in s[\"points\"] if p[\"line_speedup\"] == $2 ][0]" "$TMP/w.json" | tr -d "(),"; }

test_expect_success 'it ran; both stages are sites; both processes shared the delays' '
	test "$(cat "$TMP/w.rc")" = 0 || { cat "$TMP/w.err"; fail "whatif exited $(cat "$TMP/w.rc")"; } &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/w.json" whatif &&
	json_get "[s[\"site\"] for s in d[\"results\"][\"sites\"]]" "$TMP/w.json" >"$TMP/sites" &&
	contains "$TMP/sites" "slow_stage" &&
	contains "$TMP/sites" "fast_stage" &&
	test "$(json_get "d[\"results\"][\"processes_max\"]" "$TMP/w.json")" -ge 2 || fail "fewer than 2 processes mapped the delays"
'
test_expect_success 'samples land in each stage (each its own process) when it is sped up' '
	set -- $(pt slow_stage 1) $(pt fast_stage 1) &&
	awk -v a="$3" -v b="$6" "BEGIN { exit !(a > 0 && b > 0) }" || fail "site samples: slow $3, fast $6"
'
test_expect_success QUIET 'the slow stage rises: at line speedup 1 above 0.1 beyond its interval, and above the fast stage' '
	set -- $(pt slow_stage 1) $(pt fast_stage 1) &&
	echo "slow $1 +- $2, fast $4 +- $5" &&
	awk -v c="$1" -v ci="$2" -v s="$4" "BEGIN { exit !(c - ci > 0.1 && c - ci > s) }" ||
		fail "slow_stage at line speedup 1: $1 +- $2; fast_stage: $4 +- $5"
'
test_expect_success QUIET 'the fast stage is flat: within its interval and 10 points of 0' '
	set -- $(pt fast_stage 1) &&
	awk -v s="$1" -v si="$2" "BEGIN { exit !(s < si + 0.1 && s > -si - 0.1) }" ||
		fail "fast_stage at line speedup 1: $1 +- $2"
'
test_done
