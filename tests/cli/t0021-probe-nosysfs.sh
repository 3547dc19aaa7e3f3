# The probes answer when sysfs cache information cannot be read: a tmpfs over
# /sys/devices/system/cpu in a private mount namespace (root only; skipped otherwise).
. "$(dirname "$0")/lib.sh"
require ROOT
command -v unshare >/dev/null || skip "no unshare"
unshare -m true 2>/dev/null || skip "unshare -m not permitted here"
unshare -m sh -c "mount -t tmpfs none /sys/devices/system/cpu && test ! -e /sys/devices/system/cpu/cpu0 && \"$ARCHSCOPE\" probe line caches --quick --json" >"$TMP/out" 2>"$TMP/err" ||
	{ cat "$TMP/err" >&2; fail "probe without sysfs failed"; }
python3 - "$TMP/out" <<'PY' || fail "answers without sysfs"
import json, sys
r = json.load(open(sys.argv[1]))["results"]
assert r["line"]["value"] is not None
assert len(r["caches"]["levels"]) >= 1
PY
exit 0
