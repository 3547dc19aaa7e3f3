# Inputs that are not regular files get a clear error at once, never a hang or unbounded memory
# (issue 29): /dev/zero, a FIFO as kernel or machine file, a directory; '-' reads standard input.
. "$(dirname "$0")/lib.sh"
require LIBCLANG
M="$ROOT/machines/nehalem-i7-920.yaml"
limit() { # CODE MESSAGE ARGS...: exits CODE within 10 s with MESSAGE on stderr
	local want=$1 msg=$2; shift 2
	timeout 10 "$ARCHSCOPE" model "$@" >"$TMP/out" 2>"$TMP/err"; local rc=$?
	[ "$rc" -eq "$want" ] || { cat "$TMP/err" >&2; fail "model $* exited $rc, expected $want"; }
	contains "$TMP/err" "$msg"
}
mkfifo "$TMP/fifo"
test_expect_success '/dev/zero as the kernel' 'limit 2 "is a character device" /dev/zero -m "$M" -D N 100'
test_expect_success 'a FIFO as the kernel' 'limit 2 "is a FIFO" "$TMP/fifo" -m "$M" -D N 100'
test_expect_success 'a FIFO as the machine file' 'limit 2 "machine file '\''$TMP/fifo'\'' is a FIFO" "$ROOT/kernels/copy.c" -m "$TMP/fifo" -D N 100'
test_expect_success 'a directory as the kernel' 'limit 2 "is a directory" "$TMP" -m "$M" -D N 100'
# standard input, for the kernel or the machine file
test_expect_success 'the kernel from standard input' '
	"$ARCHSCOPE" model - -m "$M" -D N 1000 -p ECMData --json <"$ROOT/kernels/copy.c" >"$TMP/out" 2>"$TMP/err" ||
		{ cat "$TMP/err"; fail "model - < copy.c"; }
	[ "$(json_get "d[\"results\"][\"flops_per_it\"]")" = 0 ] || fail "kernel from stdin"
'
test_expect_success 'the machine file from standard input' '
	"$ARCHSCOPE" model "$ROOT/kernels/copy.c" -m - -D N 1000 -p ECMData <"$M" >"$TMP/out" 2>"$TMP/err" ||
		{ cat "$TMP/err"; fail "model -m - < machine"; }
'
test_expect_success 'not both from standard input' '
	run 2 "$ARCHSCOPE" model - -m - -D N 1000 </dev/null
	contains "$TMP/err" "cannot both be standard input"
'
test_done
