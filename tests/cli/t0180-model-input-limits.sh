# Hostile kernels get a clear error in bounded time and memory (issue 29): a 20,000-term
# expression, 5,000 nested unary minus, deep brackets, a 10 MB kernel, a loop bound that overflows
# 64 bits. (Inputs that are no regular files: t0187.)
. "$(dirname "$0")/lib.sh"
require LIBCLANG
M="$ROOT/machines/nehalem-i7-920.yaml"
python3 - "$TMP" <<'PY'
import sys
d = sys.argv[1]
hdr = "double a[N];\ndouble b[N];\nfor (int i = 0; i < N; i++)\n  a[i] = "
open(d + "/terms.c", "w").write(hdr + " + ".join(["b[i]"] * 20000) + ";\n")
open(d + "/unary.c", "w").write(hdr + "-" * 5000 + "b[i];\n")
open(d + "/paren.c", "w").write(hdr + "-(" * 300 + "b[i]" + ")" * 300 + ";\n")
line = "for (int i = 0; i < N; i++) a[i] = b[i];\n"
open(d + "/big.c", "w").write(hdr + "b[i];\n" + line * (10 * 1024 * 1024 // len(line)))
open(d + "/step.c", "w").write("double a[N];\nfor (long i = 0; i < N; i += 2)\n  a[i] = 1.0;\n")
PY
limit() { # CODE MESSAGE ARGS...: exits CODE within 10 s with MESSAGE on stderr
	local want=$1 msg=$2; shift 2
	timeout 10 "$ARCHSCOPE" model "$@" >"$TMP/out" 2>"$TMP/err"; local rc=$?
	[ "$rc" -eq "$want" ] || { cat "$TMP/err" >&2; fail "model $* exited $rc, expected $want"; }
	contains "$TMP/err" "$msg"
}
test_expect_success 'a 20,000-term expression' 'limit 2 "more than 1000 operators (the limit)" "$TMP/terms.c" -m "$M" -D N 100'
test_expect_success '5,000 nested unary minus' 'limit 2 "more than 1000 operators (the limit)" "$TMP/unary.c" -m "$M" -D N 100'
test_expect_success '300 nested brackets' 'limit 2 "brackets nested deeper than 64" "$TMP/paren.c" -m "$M" -D N 100'
test_expect_success 'a 10 MB kernel' 'limit 2 "larger than 1 MiB (the limit)" "$TMP/big.c" -m "$M" -D N 100'
test_expect_success 'a loop bound with a step that overflows 64 bits' 'limit 2 "overflows 64 bits" "$TMP/step.c" -m "$M" -D N 9223372036854775807 -p ECMData'
test_expect_success 'more bytes than 64-bit counts allow' 'limit 2 "more bytes than 64-bit counts allow" "$ROOT/kernels/copy.c" -m "$M" -D N 9223372036854775807 -p ECMData'
test_done
