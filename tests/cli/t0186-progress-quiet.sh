# Progress also when stderr is not a terminal: lines "archscope: progress: ..." (issue 29); --quiet
# silences progress and notes but not errors or warnings; every error line has the one prefix.
. "$(dirname "$0")/lib.sh"
test_expect_success 'progress lines when stderr is not a terminal' '
	run 0 "$ARCHSCOPE" probe clock
	contains "$TMP/err" "^archscope: progress: probe clock"
'
test_expect_success '--quiet and -q --json print nothing on stderr' '
	run 0 "$ARCHSCOPE" probe clock --quiet
	! [ -s "$TMP/err" ] || { cat "$TMP/err" >&2; fail "--quiet printed on stderr"; }
	run 0 "$ARCHSCOPE" probe clock -q --json
	! [ -s "$TMP/err" ] || fail "-q printed on stderr"
'
test_expect_success '--quiet does not silence errors' '
	run 2 "$ARCHSCOPE" bench copy -s 0 --quiet
	contains "$TMP/err" "^archscope: error: "
'
# one prefix: every stderr line of a failing command is an error line, a hint or a problem line
test_expect_success 'every stderr line of a failing command is an error line or a hint' '
	run 2 "$ARCHSCOPE" analyze -m qt /nonexistent.csv
	! grep -v "^archscope: error: \|^see '\''archscope\|^	did you mean" "$TMP/err" || fail "a line without the prefix"
'
test_expect_success 'every problem line of machine validate has the prefix' '
	sed "s/sets: 512,/sets: 8,/" "$ROOT/machines/nehalem-i7-920.yaml" >"$TMP/shrink.yaml"
	run 2 "$ARCHSCOPE" machine validate "$TMP/shrink.yaml"
	! grep -v "^archscope: error: " "$TMP/err" || fail "a problem line without the prefix"
'
test_done
