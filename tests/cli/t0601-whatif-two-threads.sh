# whatif on threads with a known answer (examples/whatif/two-threads.c): thread A's line (twice B's
# work) is the critical path, B's is not: A's curve rises (to 1/2), B's is flat. Under other load a
# 0.2 s program's wall time spreads by tens of per cent (this 2-CPU machine, load 12: 15-55 %), which
# no interval of 3 rounds narrows enough, so the shapes are asserted on a quiet machine (QUIET);
# what holds under any load is asserted always: the sites, the curves' points, the delays inserted
# by samples in the site and by none in the baseline.
. "$(dirname "$0")/lib.sh"
EX=$(dirname "$ARCHSCOPE")
[ -x "$EX/whatif-two-threads" ] || skip "needs the whatif examples beside $ARCHSCOPE"
"$ARCHSCOPE" whatif -q --json --sites 2 --speedups 0.5,1 --rounds 3 -- "$EX/whatif-two-threads" >"$TMP/w.json" 2>"$TMP/w.err"
echo $? >"$TMP/w.rc"
# the point at line speedup $2 of the site whose name holds $1: "program_speedup ci site_samples"
pt() { json_get "[ (p[\"program_speedup\"], p[\"ci\"], p[\"site_samples\"]) for s in d[\"results\"][\"sites\"] if \"$1\" in s[\"site\"] for p in s[\"points\"] if p[\"line_speedup\"] == $2 ][0]" "$TMP/w.json" | tr -d "(),"; }

test_expect_success 'it ran; both lines are sites, each with its curve of 3 points' '
	test "$(cat "$TMP/w.rc")" = 0 || { cat "$TMP/w.err"; fail "whatif exited $(cat "$TMP/w.rc")"; } &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/w.json" whatif &&
	json_get "[s[\"site\"] for s in d[\"results\"][\"sites\"]]" "$TMP/w.json" >"$TMP/sites" &&
	contains "$TMP/sites" "two-threads.c:[0-9]* (crit_work)" &&
	contains "$TMP/sites" "two-threads.c:[0-9]* (side_work)" &&
	test "$(json_get "[len(s[\"points\"]) for s in d[\"results\"][\"sites\"]]" "$TMP/w.json")" = "[3, 3]" ||
		fail "not 3 points a site"
'
test_expect_success 'samples land in the site when it is sped up, the baseline inserts no delay' '
	set -- $(pt crit_work 0) $(pt crit_work 1) $(pt side_work 1) &&
	echo "site samples: baseline $3, crit at 1: $6, side at 1: $9" &&
	awk -v b="$3" -v c="$6" -v s="$9" "BEGIN { exit !(b == 0 && c > 0 && s > 0) }" || fail "site samples $3 $6 $9" &&
	awk -v d="$(json_get "d[\"results\"][\"delay_share_max\"]" "$TMP/w.json")" "BEGIN { exit !(d > 0.05) }" ||
		fail "no delay was inserted"
'
test_expect_success QUIET 'the critical line rises: at line speedup 1 above 0.1 beyond its interval, and above the side line' '
	set -- $(pt crit_work 1) $(pt side_work 1) &&
	echo "crit $1 +- $2, side $4 +- $5" &&
	awk -v c="$1" -v ci="$2" -v s="$4" "BEGIN { exit !(c - ci > 0.1 && c - ci > s) }" ||
		fail "crit_work at line speedup 1: $1 +- $2; side_work: $4 +- $5"
'
test_expect_success QUIET 'the side line is flat: within its interval and 10 points of 0' '
	set -- $(pt side_work 1) &&
	awk -v s="$1" -v si="$2" "BEGIN { exit !(s < si + 0.1 && s > -si - 0.1) }" ||
		fail "side_work at line speedup 1: $1 +- $2"
'
test_done
