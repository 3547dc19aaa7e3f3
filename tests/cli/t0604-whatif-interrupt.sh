# whatif follows the one interrupt policy (common/interrupt.h): SIGTERM or SIGINT during the rounds
# stops the program, prints the rounds finished before it (the cut run left out), marked
# interrupted, exits 130 and leaves no temporary directory; the program's own output never reaches
# archscope's streams; a --plot DIR gets the Coz plot's data.
. "$(dirname "$0")/lib.sh"
EX=$(dirname "$ARCHSCOPE")
[ -x "$EX/whatif-two-threads" ] || skip "needs the whatif examples beside $ARCHSCOPE"
export TMPDIR="$TMP/tmpdir"
mkdir -p "$TMPDIR"

wait_grep() {
	local i=0
	until grep -q -- "$2" "$1" 2>/dev/null; do
		kill -0 "$3" 2>/dev/null || { cat "$1"; fail "it ended before '$2' came in $1"; }
		i=$((i + 1))
		[ $i -lt 3000 ] || { kill -KILL "$3" 2>/dev/null; cat "$1"; fail "'$2' never came in $1"; }
		sleep 0.1
	done
}

# progress lines come at most about once a second, so on a fast machine "round 2" itself may never
# be printed: wait for any round from the second on (a program that ended first fails at once)
for sig in TERM INT; do
	test_expect_success "SIG$sig after round 2 began: the finished rounds, interrupted, 130, no temporary files" '
		"$ARCHSCOPE" whatif --json --sites 1 --speedups 1 --rounds 16 -- "$EX/whatif-two-threads" \
			>"$TMP/out" 2>"$TMP/err" &
		pid=$!
		wait_grep "$TMP/err" "round \([2-9]\|[1-9][0-9][0-9]*\) of" $pid
		kill -s '"$sig"' $pid
		wait $pid
		rc=$?
		test $rc = 130 || { cat "$TMP/err"; fail "exit $rc, not 130"; }
		test "$(json_get "d[\"results\"][\"interrupted\"]")" = True || fail "not marked interrupted"
		# the round the last progress line named had begun: every round before it is kept
		began=$(sed -n "s/.*round \([0-9]*\) of.*/\1/p" "$TMP/err" | tail -n 1)
		runs=$(json_get "d[\"results\"][\"sites\"][0][\"points\"][1][\"runs\"]")
		test "$runs" -ge $((began - 1)) && test "$runs" -ge 1 && test "$runs" -lt 16 ||
			fail "$runs runs at line speedup 1 after round $began began"
		contains "$TMP/err" "interrupted"
		test -z "$(ls -A "$TMPDIR")" || fail "left behind: $(ls -A "$TMPDIR")"
	'
done

# at SCALE 1 (about 0.2 s for crit_work, 0.1 s for side_work) the profile's ranking rests on some
# 50 samples against 25; at 0.2 it rested on 9 against 4 and side_work came first now and then
test_expect_success 'the program'"'"'s output is not archscope'"'"'s; --plot writes the curves' '
	run 0 "$ARCHSCOPE" whatif -q --sites 1 --speedups 1 --rounds 1 --plot "$TMP/plot" -- "$EX/whatif-two-threads" 1 &&
	! grep -qxE "[0-9.]+(e[+-][0-9]+)?" "$TMP/out" "$TMP/err" || fail "the program'"'"'s output reached archscope'"'"'s streams" &&
	test -s "$TMP/plot/whatif.dat" || fail "no whatif.dat" &&
	contains "$TMP/plot/whatif.dat" "crit_work" &&
	test -s "$TMP/plot/whatif.gp" || fail "no whatif.gp"
'
test_expect_success 'sites by function' '
	run 0 "$ARCHSCOPE" whatif -q --json --by function --sites 2 --speedups 1 --rounds 1 -- "$EX/whatif-two-threads" 1 &&
	test "$(json_get "d[\"results\"][\"by\"]")" = function || fail "not by function" &&
	json_get "[s[\"site\"] for s in d[\"results\"][\"sites\"]]" >"$TMP/sites" &&
	contains "$TMP/sites" "crit_work (whatif-two-threads)"
'
test_done
