# The command table: listing, version, unknown commands and options, checked output stream.
. "$(dirname "$0")/lib.sh"
# no command: the list on stderr, exit 2 (a usage error, as git and perf; issue 29)
run 2 "$ARCHSCOPE"
contains "$TMP/err" "topology"
contains "$TMP/err" "probe"
run 0 "$ARCHSCOPE" help
contains "$TMP/out" "topology"
run 0 "$ARCHSCOPE" --version
contains "$TMP/out" "archscope [0-9]"
run 2 "$ARCHSCOPE" nosuch
contains "$TMP/err" "not an archscope command"
run 2 "$ARCHSCOPE" topolgy
contains "$TMP/err" "did you mean 'topology'"
run 2 "$ARCHSCOPE" topology --bogus
contains "$TMP/err" "unknown option '--bogus'"
contains "$TMP/err" "archscope topology --help"
run 2 "$ARCHSCOPE" topology extra
run 0 "$ARCHSCOPE" help topology
contains "$TMP/out" "usage: archscope topology"
# A full disk is an error, not a silently truncated result.
if [ -w /dev/full ]; then
	"$ARCHSCOPE" topology >/dev/full 2>"$TMP/err" && fail "topology > /dev/full exited 0"
	contains "$TMP/err" "write error"
	"$ARCHSCOPE" --help >/dev/full 2>"$TMP/err" && fail "--help > /dev/full exited 0"
fi
exit 0
