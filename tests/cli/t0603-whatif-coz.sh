# whatif with a program instrumented for Coz, built unchanged against Debian's coz.h
# (examples/whatif/coz/progress.c): COZ_PROGRESS_NAMED is the throughput measure by default,
# COZ_BEGIN/COZ_END the latency one by --progress-point; the visits of a forked child count in the
# same counter as its parent's (2 x ITEMS a run, exactly); a point that is not there is said so.
. "$(dirname "$0")/lib.sh"
require COZ
cc -O2 -g -o "$TMP/progress" "$ROOT/examples/whatif/coz/progress.c" -ldl || fail "cannot build the Coz example"
common="-q --json --sites 1 --speedups 1 --rounds 2"

test_expect_success 'throughput: the named progress point, its visits from both processes' '
	run 0 "$ARCHSCOPE" whatif $common -- "$TMP/progress" 60 &&
	cp "$TMP/out" "$TMP/t.json" &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/t.json" whatif &&
	cp "$TMP/t.json" "$TMP/out" &&
	test "$(json_get "d[\"results\"][\"progress\"]")" = items || fail "not measured by items" &&
	test "$(json_get "d[\"results\"][\"progress_kind\"]")" = throughput || fail "not throughput" &&
	test "$(json_get "d[\"results\"][\"progress_visits\"]")" = 120.0 || fail "visits are not 2 x 60" &&
	json_get "d[\"results\"][\"sites\"][0][\"site\"]" >"$TMP/site" &&
	contains "$TMP/site" "progress.c:[0-9]* (item_work"
'
test_expect_success 'latency: COZ_BEGIN/COZ_END by --progress-point, below the run time' '
	run 0 "$ARCHSCOPE" whatif $common --progress-point item -- "$TMP/progress" 60 &&
	test "$(json_get "d[\"results\"][\"progress_kind\"]")" = latency || fail "not latency" &&
	test "$(json_get "d[\"results\"][\"progress_visits\"]")" = 120.0 || fail "END visits are not 2 x 60" &&
	test "$(json_get "int(d[\"results\"][\"baseline_period\"] < d[\"results\"][\"profile_wall\"])")" = 1 ||
		fail "an item takes longer than the whole run"
'
test_expect_success 'a progress point the program does not have: wall time, said so with the ones it has' '
	run 0 "$ARCHSCOPE" whatif $common --progress-point nothere -- "$TMP/progress" 20 &&
	test "$(json_get "d[\"results\"][\"progress_kind\"]")" = end_to_end || fail "not end to end" &&
	json_get "d[\"results\"][\"notes\"]" >"$TMP/notes" &&
	contains "$TMP/notes" "nothere" &&
	contains "$TMP/notes" "items (throughput)"
'
test_done
