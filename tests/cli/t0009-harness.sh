# The case harness of lib.sh (test_expect_success, test_expect_failure, test_done; issue 37 item 5):
# a script with a passing, a failing, a skipped and a known-broken case reports each one, the failing
# one with what it printed, goes on after the failure, counts them, and exits 1; all skipped is 77,
# all passed is 0; a script that forgets test_done or runs no case fails. Written without the harness
# itself, so that a harness that says "ok" to everything cannot pass it.
. "$(dirname "$0")/lib.sh"
# inner NAME BODY: a script sourcing lib.sh with BODY after it; run it, output in $TMP/NAME.out, rc in $rc
inner() {
	printf '. "%s/tests/cli/lib.sh"\n%s\n' "$ROOT" "$2" >"$TMP/$1.sh"
	ARCHSCOPE_TEST_WITHOUT=GCC ARCHSCOPE_TEST_VERBOSE= bash "$TMP/$1.sh" >"$TMP/$1.out" 2>&1
	rc=$?
}
# has NAME LINE: the output of NAME has LINE exactly
has() { grep -qxF -- "$2" "$TMP/$1.out" || { cat "$TMP/$1.out" >&2; fail "$1: no line '$2'"; }; }

inner mixed '
test_expect_success "true passes" "run 0 true"
test_expect_success "false fails" "
	echo before the failure
	run 0 false
	echo after the failure
"
test_expect_success "a case that skips" "skip no reason at all"
test_expect_success GCC "a case that needs GCC" "echo ran; exit 1"
leaked=no
test_expect_success "sets a variable" "leaked=yes"
test_expect_success "the variable stays in its case" "[ \"\$leaked\" = no ] || fail \"leaked=\$leaked\""
test_expect_failure "a known breakage" "false"
test_expect_success "the last check decides" "true; false"
what=W why=Y code=C rc=R mode=M p=P log=L s=S
test_expect_success "a case sees the script'"'"'s variables, not the harness'"'"'s" "
	[ \"\$what \$why \$code \$rc \$mode \$p \$log \$s\" = \"W Y C R M P L S\" ] || fail \"\$what \$why \$code \$rc \$mode \$p \$log \$s\"
"
test_done
echo not reached'
[ "$rc" -eq 1 ] || { cat "$TMP/mixed.out" >&2; fail "a script with failing cases exited $rc, expected 1"; }
has mixed "ok 1 - true passes"
has mixed "not ok 2 - false fails"
has mixed "    before the failure"
has mixed "    FAIL: 'false' exited 1, expected 0"
grep -q "after the failure" "$TMP/mixed.out" && fail "fail did not end its case"
has mixed "ok 3 - a case that skips # skip no reason at all"
has mixed "ok 4 - a case that needs GCC # skip needs GCC (ARCHSCOPE_TEST_WITHOUT names it)"
grep -q "^ran" "$TMP/mixed.out" && fail "a case whose prerequisite is missing ran"
has mixed "ok 5 - sets a variable"
has mixed "ok 6 - the variable stays in its case"
has mixed "not ok 7 - a known breakage # TODO known breakage"
has mixed "not ok 8 - the last check decides"
has mixed "    (no output; the code's last command exited 1)"
has mixed "ok 9 - a case sees the script's variables, not the harness's"
has mixed "# 9 cases, 2 failed, 2 skipped, 1 known breakages"
grep -q "not reached" "$TMP/mixed.out" && fail "test_done did not end the script"
[ "$(grep -c '^ok \|^not ok ' "$TMP/mixed.out")" -eq 9 ] || fail "not 9 case lines"

inner passing '
test_expect_success "one" "run 0 true"
test_expect_success "two" "cd /; [ \"\$(pwd)\" = / ]"
test_expect_success "three, in the directory the script was in" "[ \"\$(pwd)\" != / ]"
test_expect_failure "a fixed breakage" "true"
test_done'
[ "$rc" -eq 0 ] || { cat "$TMP/passing.out" >&2; fail "a script whose cases all pass exited $rc"; }
has passing "ok 4 - a fixed breakage # TODO known breakage vanished"
has passing "# 4 cases, 0 failed"

inner skipped '
test_expect_success GCC "needs GCC" "true"
test_expect_success "skips" "require GCC; echo ran"
test_done'
[ "$rc" -eq 77 ] || { cat "$TMP/skipped.out" >&2; fail "a script whose cases all skip exited $rc, expected 77"; }
has skipped "ok 2 - skips # skip needs GCC (ARCHSCOPE_TEST_WITHOUT names it)"
has skipped "# 2 cases, 0 failed, 2 skipped"
has skipped "skip: all 2 cases skipped: needs GCC (ARCHSCOPE_TEST_WITHOUT names it)"

inner required '
require GCC
test_expect_success "never runs" "true"
test_done'
[ "$rc" -eq 77 ] || fail "require before the cases: exit $rc, expected 77"
has required "skip: needs GCC (ARCHSCOPE_TEST_WITHOUT names it)"

inner no_done '
test_expect_success "fails" "false"
exit 0'
[ "$rc" -eq 1 ] || fail "a script that ran cases and ended without test_done exited $rc, expected 1"
has no_done "bug in the test script: 1 cases ran and it ended without test_done"

inner no_case 'test_done'
[ "$rc" -eq 1 ] || fail "a script that ran no case exited $rc, expected 1"

inner bad_args 'test_expect_success "no code"
test_done'
[ "$rc" -eq 1 ] || fail "test_expect_success without code exited $rc, expected 1"
has bad_args "bug in the test script: test_expect_success takes [PREREQS] WHAT CODE, not 1 arguments"
exit 0
