# Tier 1: a static binary (examples/stack/barrier.c linked -static), which the preload library
# cannot reach, still gets a stack from the scheduler's tracepoints when running as root: tier 1,
# its three threads seen, the components summing to N, its barrier waits off the CPU as yielding
# (blocked_other). Where tracefs is not mounted, the test mounts it in its own mount namespace.
. "$(dirname "$0")/lib.sh"
# the system python when there is one: a version manager's shim can take seconds to start
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
require ROOT
EX=$(dirname "$ARCHSCOPE")
[ -x "$EX/stack-barrier-static" ] || skip "needs stack-barrier-static beside $ARCHSCOPE (no static libc)"
# tracefs not mounted (a fresh machine): mount it in a private mount namespace of this test alone
wrap=()
if ! grep -qs ' /sys/kernel/tracing tracefs ' /proc/mounts && unshare -m true 2>/dev/null; then
	wrap=(unshare -m sh -c 'mount -t tracefs nodev /sys/kernel/tracing && exec "$@"' sh)
fi
run 0 "${wrap[@]}" "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- "$EX/stack-barrier-static" "{T}" 300
if [ "$(json_get "'tracepoints' in d['results']")" = True ]; then
	skip "tracepoints refused: $(json_get "d['results']['tracepoints']")"
fi
"$PY" - "$TMP/out" <<'PY' || fail "tier-1 stack (JSON in $TMP/out)"
import json, sys
r = json.load(open(sys.argv[1]))["results"]["runs"][0]
c = r["components"]
print({k: round(v, 3) for k, v in c.items()}, r["by_primitive"]["blocked_other"])
assert r["tier"] == 1, r["tier"]
assert r["threads_max"] == 3, r["threads_max"]
assert abs(sum(c.values()) - 2) < 1e-6
assert r["by_primitive"]["blocked_other"] > 0.05 and c["yielding"] > 0.05
assert not any("no record" in n for n in r["notes"])
PY
exit 0
