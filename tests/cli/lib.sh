# Helpers for CLI tests: $ARCHSCOPE is the binary, $ROOT the source tree. Exit 0 pass, 77 skip.
set -u
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "$*"; exit 77; }
TMP=$(mktemp -d /tmp/archscope-t.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
# run CODE CMD...: runs CMD, stdout in $TMP/out, stderr in $TMP/err, fails unless it exits CODE.
run() {
	local want=$1; shift
	"$@" >"$TMP/out" 2>"$TMP/err"; local rc=$?
	[ "$rc" -eq "$want" ] || { cat "$TMP/err" >&2; fail "'$*' exited $rc, expected $want"; }
}
# json_get EXPR: evaluates a python expression on the JSON in $TMP/out bound to d.
json_get() { python3 -c "import json,sys; d=json.load(open('$TMP/out')); print($1)"; }
contains() { grep -q -- "$2" "$1" || { echo "--- $1:" >&2; head -n 30 "$1" >&2; fail "'$2' not in $1"; }; }
export ARCHSCOPE_CACHE_DIR="$TMP/cache" # a test starts with an empty parse cache and leaves none behind
