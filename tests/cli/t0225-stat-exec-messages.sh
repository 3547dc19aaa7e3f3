# A program that cannot be started is reported for what is wrong (issue 35), by stat, phases, regress
# and compare -r alike, with exit 2 before anything is measured: a file that is not executable is
# "not executable" (not "not in PATH"), a script whose #! interpreter is missing names the
# interpreter (not "no such file" about a script that exists), a name PATH does not hold is "not
# found in PATH", a directory is a directory. One case per command and program.
. "$(dirname "$0")/lib.sh"
printf '#!/bin/sh\necho hi\n' >"$TMP/noexec.sh"
chmod 644 "$TMP/noexec.sh"
printf '#!/nonexistent/interp -x\necho hi\n' >"$TMP/badinterp.sh"
chmod 755 "$TMP/badinterp.sh"
printf '#!%s\n' "$TMP/noexec.sh" >"$TMP/interp-noexec.sh"
chmod 755 "$TMP/interp-noexec.sh"
mkdir -p "$TMP/bin"
printf '#!/bin/sh\necho hi\n' >"$TMP/bin/mytool-t0225"
chmod 644 "$TMP/bin/mytool-t0225"
# each command, as it takes a program (regress's needs its parameter among the arguments)
for cmd in "stat -q -e task-clock --" "phases -q -e task-clock --" "regress -q --param N=1,2 -e task-clock --" \
	"compare -q -r 2 -e task-clock -- true --"; do
	arg=
	case $cmd in regress*) arg={N} ;; esac
	c=${cmd%% *}
	test_expect_success "$c: a file that is not executable" '
		run 2 "$ARCHSCOPE" $cmd "$TMP/noexec.sh" $arg
		contains "$TMP/err" "cannot run '\''$TMP/noexec.sh'\'': it is not executable"
		! grep -q "PATH" "$TMP/err" || fail "$cmd: a file that is not executable reported as not in PATH"
	'
	test_expect_success "$c: a script whose #! interpreter is missing" '
		run 2 "$ARCHSCOPE" $cmd "$TMP/badinterp.sh" $arg
		contains "$TMP/err" "its interpreter '\''/nonexistent/interp'\'' in its #! line does not exist"
	'
	test_expect_success "$c: a script whose #! interpreter is not executable" '
		run 2 "$ARCHSCOPE" $cmd "$TMP/interp-noexec.sh" $arg
		contains "$TMP/err" "its interpreter '\''$TMP/noexec.sh'\'' in its #! line is not executable"
	'
	test_expect_success "$c: a name PATH does not hold" '
		run 2 "$ARCHSCOPE" $cmd no-such-program-t0225 $arg
		contains "$TMP/err" "cannot run '\''no-such-program-t0225'\'': not found in PATH"
	'
	test_expect_success "$c: a directory" '
		run 2 "$ARCHSCOPE" $cmd "$TMP/bin" $arg
		contains "$TMP/err" "it is a directory"
	'
	test_expect_success "$c: a file in PATH that is not executable" '
		PATH="$TMP/bin:$PATH" run 2 "$ARCHSCOPE" $cmd mytool-t0225 $arg
		contains "$TMP/err" "cannot run '\''$TMP/bin/mytool-t0225'\'': it is not executable"
	'
	test_expect_success "$c: a path that does not exist" '
		run 2 "$ARCHSCOPE" $cmd /nonexistent/prog $arg
		contains "$TMP/err" "cannot run '\''/nonexistent/prog'\'': no such file or directory"
	'
done
test_done
