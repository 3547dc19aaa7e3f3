# The command table: listing, version, unknown commands and options, checked output stream.
. "$(dirname "$0")/lib.sh"
# no command: the list on stderr, exit 2 (a usage error, as git and perf; issue 29)
test_expect_success 'no command: the list on stderr, exit 2' '
	run 2 "$ARCHSCOPE"
	contains "$TMP/err" "topology"
	contains "$TMP/err" "probe"
'
test_expect_success 'help lists the commands' '
	run 0 "$ARCHSCOPE" help
	contains "$TMP/out" "topology"
'
test_expect_success '--version' '
	run 0 "$ARCHSCOPE" --version
	contains "$TMP/out" "archscope [0-9]"
'
test_expect_success 'an unknown command' '
	run 2 "$ARCHSCOPE" nosuch
	contains "$TMP/err" "not an archscope command"
'
test_expect_success 'a misspelt command gets a suggestion' '
	run 2 "$ARCHSCOPE" topolgy
	contains "$TMP/err" "did you mean '\''topology'\''"
'
test_expect_success 'an unknown option' '
	run 2 "$ARCHSCOPE" topology --bogus
	contains "$TMP/err" "unknown option '\''--bogus'\''"
	contains "$TMP/err" "archscope topology --help"
'
test_expect_success 'an argument a command does not take' '
	run 2 "$ARCHSCOPE" topology extra
'
test_expect_success 'help COMMAND' '
	run 0 "$ARCHSCOPE" help topology
	contains "$TMP/out" "usage: archscope topology"
'
# A full disk is an error, not a silently truncated result.
test_expect_success 'a full disk is an error' '
	[ -w /dev/full ] || skip "no writable /dev/full"
	! "$ARCHSCOPE" topology >/dev/full 2>"$TMP/err" || fail "topology > /dev/full exited 0"
	contains "$TMP/err" "write error"
	! "$ARCHSCOPE" --help >/dev/full 2>"$TMP/err" || fail "--help > /dev/full exited 0"
'
test_done
