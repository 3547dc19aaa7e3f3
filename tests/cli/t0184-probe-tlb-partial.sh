# An interrupted TLB probe gives no confident answer from its cut curves (issue 29): after Ctrl-C
# the tlb object says partial and every answer found in a partial curve has confidence 0.
. "$(dirname "$0")/lib.sh"
"$ARCHSCOPE" probe tlb --json >"$TMP/out" 2>"$TMP/err" &
pid=$!
sleep 4
kill -INT "$pid"
wait "$pid"; rc=$?
[ "$rc" -eq 130 ] || { cat "$TMP/err" >&2; fail "exit $rc after SIGINT, expected 130"; }
python3 - "$TMP/out" <<'PY' || fail "a partial TLB curve gave a confident answer"
import json, sys
r = json.load(open(sys.argv[1]))["results"]
assert r["incomplete"] is True
t = r.get("tlb")
if t is None:
    sys.exit(0)  # interrupted before the tlb group rendered anything
assert t.get("partial") is True, "no partial flag"
answers = [t["page_size"], t["page_witnesses"]["pairs"]] + [l["entries"] for l in t.get("levels", [])]
for a in answers:
    if a["value"] is not None and a.get("reason", "").startswith("partial curve"):
        assert a["confidence"] == 0, a
# the page curve runs over strides 4 lines .. 256 KiB, doubling: shorter is partial
import math
line = (r.get("line") or {}).get("value") or 64
want = int(math.log2((256 << 10) / (4 * line))) + 1
if len(t.get("page_curve", [])) < want and t["page_size"]["value"] is not None:
    assert t["page_size"]["confidence"] == 0, t["page_size"]
PY
exit 0
