# An interrupted TLB probe gives no confident answer from its cut curves (issue 29): after Ctrl-C
# the tlb object says partial and every answer found in a partial curve has confidence 0.
. "$(dirname "$0")/lib.sh"
"$ARCHSCOPE" probe tlb --json >"$TMP/out" 2>"$TMP/err" &
pid=$!
sleep 1.2
kill -INT "$pid" 2>/dev/null
wait "$pid"; rc=$?
if [ "$rc" -eq 0 ]; then # done before the signal (a fast machine): complete curves, no partial flag
	json_get '"partial" not in d["results"]["tlb"]' | grep -qx True || fail "a complete run marked partial"
	exit 0
fi
[ "$rc" -eq 130 ] || { cat "$TMP/err" >&2; fail "exit $rc after SIGINT, expected 130"; }
python3 - "$TMP/out" <<'PY' || fail "a partial TLB curve gave a confident answer"
import json, math, sys
r = json.load(open(sys.argv[1]))["results"]
assert r["incomplete"] is True
t = r.get("tlb")
if t is None:
    sys.exit(0)  # interrupted before the tlb group rendered anything
# the curves: pairs over strides 4 lines .. 256 KiB, first touches over 512 B .. 256 KiB, doubling
pc = t.get("page_curve", [])
cut_pairs = not pc or len(pc) < int(round(math.log2((256 << 10) / pc[0]["stride_bytes"]))) + 1
cut_faults = len(t["page_witnesses"]["faults"].get("curve", [])) < 10
if cut_pairs or cut_faults:
    assert t.get("partial") is True, "a cut curve without the partial flag"
answers = [t["page_size"], t["page_witnesses"]["pairs"], t["page_witnesses"]["faults"]] + \
    [l["entries"] for l in t.get("levels", [])]
for a in answers:
    if a["value"] is not None and a["confidence"] > 0:
        assert not a.get("reason", "").startswith("partial curve"), a
if cut_pairs and t["page_witnesses"]["pairs"]["value"] is not None:
    assert t["page_witnesses"]["pairs"]["confidence"] == 0
if cut_faults and t["page_witnesses"]["faults"]["value"] is not None:
    assert t["page_witnesses"]["faults"]["confidence"] == 0
PY
exit 0
