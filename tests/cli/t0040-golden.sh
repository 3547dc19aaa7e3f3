# Golden outputs: model on every kernel with fixed machine files and analyze with every method on
# every recorded curve give the JSON recorded in tests/golden/expected (tests/golden/run.sh).
. "$(dirname "$0")/lib.sh"
require LIBCLANG
root=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
"$root/tests/golden/run.sh" "$ARCHSCOPE" >"$TMP/out" 2>&1 || { tail -n 60 "$TMP/out" >&2; fail "golden outputs differ"; }
tail -n 1 "$TMP/out"
