# Ctrl-C in a long probe keeps what was measured: exit 130, JSON marked incomplete.
. "$(dirname "$0")/lib.sh"
"$ARCHSCOPE" probe clock line caches tlb --json >"$TMP/out" 2>"$TMP/err" &
pid=$!
# Wait until the clock is done (it is measured first), then interrupt.
sleep 1.5
kill -INT "$pid"
wait "$pid"; rc=$?
[ "$rc" -eq 130 ] || { cat "$TMP/err" >&2; fail "exit $rc after SIGINT, expected 130"; }
contains "$TMP/err" "interrupted"
python3 - "$TMP/out" <<'PY' || fail "partial JSON"
import json, sys
r = json.load(open(sys.argv[1]))["results"]
assert r["incomplete"] is True
assert r["clock"]["value"] > 0
PY
exit 0
