# memhist --from: recorded Intel and AMD samples (JSON lines and perf script text) give the
# histograms counted by hand in tests/fixtures/measure/README.md, in count and cost mode.
. "$(dirname "$0")/lib.sh"
FIX="$ROOT/tests/fixtures/measure"
BINS=0,8,16,32,64,128,256,512
# check FILE MODE EXPECTED: EXPECTED is the hand count, one row per bin, columns L1 LFB L2 L3
# local_dram remote_dram remote_cache other
check() {
	run 0 "$ARCHSCOPE" memhist --json --bins $BINS --mode "$2" --from "$FIX/$1"
	python3 - "$TMP/out" "$3" "$1" <<'PY' || fail "$1 --mode $2"
import json, sys
r = json.load(open(sys.argv[1]))["results"]
keys = ("l1", "lfb", "l2", "l3", "local_dram", "remote_dram", "remote_cache", "other")
got = [[int(row[k]) for k in keys] for row in r["histogram"]]
want = json.loads(sys.argv[2])
assert got == want, f"histogram {got}, hand count {want}"
assert [row["from_cy"] for row in r["histogram"]] == [0, 8, 16, 32, 64, 128, 256, 512]
assert r["histogram"][-1]["to_cy"] is None
assert {k: int(v) for k, v in r["totals"].items()} == {k: sum(g[i] for g in want) for i, k in enumerate(keys)}
assert r["samples"] == r["samples_binned"] == (24 if "intel" in sys.argv[3] else 25)
PY
}
INTEL_COUNT='[[5,0,0,0,0,0,0,0],[0,2,2,0,0,0,0,1],[0,1,1,0,0,0,0,0],[0,0,0,2,0,0,0,0],[0,0,0,1,0,0,0,0],[0,0,0,0,2,0,1,1],[0,0,0,0,1,2,1,0],[0,0,0,0,0,1,0,0]]'
INTEL_COST='[[27,0,0,0,0,0,0,0],[0,21,29,0,0,0,0,10],[0,20,18,0,0,0,0,0],[0,0,0,85,0,0,0,0],[0,0,0,70,0,0,0,0],[0,0,0,0,380,0,150,230],[0,0,0,0,260,650,400,0],[0,0,0,0,0,520,0,0]]'
AMD_COUNT='[[4,0,0,0,0,0,0,1],[0,0,2,0,0,0,0,0],[0,2,1,0,0,0,0,0],[0,0,0,3,0,0,0,0],[0,0,0,2,0,0,0,0],[0,0,0,1,1,0,0,0],[0,0,0,0,2,1,2,0],[0,0,0,0,0,2,0,1]]'
AMD_COST='[[3,0,0,0,0,0,0,0],[0,0,25,0,0,0,0,0],[0,55,17,0,0,0,0,0],[0,0,0,155,0,0,0,0],[0,0,0,200,0,0,0,0],[0,0,0,140,250,0,0,0],[0,0,0,0,570,420,860,0],[0,0,0,0,0,1300,0,900]]'
check memhist-intel.jsonl count "$INTEL_COUNT"
check memhist-intel-perf-script.txt cost "$INTEL_COST"
check memhist-amd-perf-script.txt count "$AMD_COUNT"
check memhist-amd.jsonl cost "$AMD_COST"
# text for people, default log2 bins
run 0 "$ARCHSCOPE" memhist --from "$FIX/memhist-amd.jsonl"
contains "$TMP/out" "samples by latency and data source"
contains "$TMP/out" "latency cy  *L1  *LFB  *L2  *L3  *local DRAM  *remote DRAM  *remote cache  *other"
contains "$TMP/out" ">= 2048"
# bad input names the file and line
printf '{"latency_cy": 3, "data_src": 1}\n{"latency_cy": "x", "data_src": 1}\n' >"$TMP/bad.jsonl"
run 2 "$ARCHSCOPE" memhist --from "$TMP/bad.jsonl"
contains "$TMP/err" "bad.jsonl' line 2"
run 1 "$ARCHSCOPE" memhist --from "$TMP/nonexistent"
run 2 "$ARCHSCOPE" memhist --bins 8,4 --from "$FIX/memhist-amd.jsonl"
contains "$TMP/err" "increasing edges"
exit 0
