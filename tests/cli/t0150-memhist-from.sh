# memhist --from: recorded Intel and AMD samples (JSON lines and perf script text) give the
# histograms counted by hand in tests/fixtures/measure/README.md, in count and cost mode.
. "$(dirname "$0")/lib.sh"
FIX="$ROOT/tests/fixtures/measure"
BINS=0,8,16,32,64,128,256,512
# Each file once in count or cost mode, then one python compares them all with the hand count
# (rows: bins; columns: L1 LFB L2 L3 local_dram remote_dram remote_cache other).
INTEL_COUNT='[[5,0,0,0,0,0,0,0],[0,2,2,0,0,0,0,1],[0,1,1,0,0,0,0,0],[0,0,0,2,0,0,0,0],[0,0,0,1,0,0,0,0],[0,0,0,0,2,0,1,1],[0,0,0,0,1,2,1,0],[0,0,0,0,0,1,0,0]]'
INTEL_COST='[[27,0,0,0,0,0,0,0],[0,21,29,0,0,0,0,10],[0,20,18,0,0,0,0,0],[0,0,0,85,0,0,0,0],[0,0,0,70,0,0,0,0],[0,0,0,0,380,0,150,230],[0,0,0,0,260,650,400,0],[0,0,0,0,0,520,0,0]]'
AMD_COUNT='[[4,0,0,0,0,0,0,1],[0,0,2,0,0,0,0,0],[0,2,1,0,0,0,0,0],[0,0,0,3,0,0,0,0],[0,0,0,2,0,0,0,0],[0,0,0,1,1,0,0,0],[0,0,0,0,2,1,2,0],[0,0,0,0,0,2,0,1]]'
AMD_COST='[[3,0,0,0,0,0,0,0],[0,0,25,0,0,0,0,0],[0,55,17,0,0,0,0,0],[0,0,0,155,0,0,0,0],[0,0,0,200,0,0,0,0],[0,0,0,140,250,0,0,0],[0,0,0,0,570,420,860,0],[0,0,0,0,0,1300,0,900]]'

test_expect_success 'Intel and AMD samples, JSON lines and perf script, count and cost: the hand count' '
	n=0
	for c in "memhist-intel.jsonl count 24 $INTEL_COUNT" "memhist-intel-perf-script.txt cost 24 $INTEL_COST" \
		"memhist-amd-perf-script.txt count 25 $AMD_COUNT" "memhist-amd.jsonl cost 25 $AMD_COST"; do
		set -- $c
		n=$((n + 1))
		run 0 "$ARCHSCOPE" memhist --json --bins $BINS --mode "$2" --from "$FIX/$1"
		mv "$TMP/out" "$TMP/h$n.json"
		echo "$1 $2 $3 $4" >>"$TMP/cases"
	done
	python3 - "$TMP" <<-\PY || fail "histograms differ from the hand count"
	import json, sys
	keys = ("l1", "lfb", "l2", "l3", "local_dram", "remote_dram", "remote_cache", "other")
	for n, line in enumerate(open(sys.argv[1] + "/cases"), 1):
	    name, mode, samples, want = line.split()
	    r = json.load(open(f"{sys.argv[1]}/h{n}.json"))["results"]
	    got = [[int(row[k]) for k in keys] for row in r["histogram"]]
	    want = json.loads(want)
	    assert got == want, f"{name} {mode}: histogram {got}, hand count {want}"
	    assert r["mode"] == mode and r["samples"] == r["samples_binned"] == int(samples), name
	    assert [row["from_cy"] for row in r["histogram"]] == [0, 8, 16, 32, 64, 128, 256, 512]
	    assert r["histogram"][-1]["to_cy"] is None
	    assert {k: int(v) for k, v in r["totals"].items()} == {k: sum(g[i] for g in want) for i, k in enumerate(keys)}
	    print(f"{name} --mode {mode}: equal to the hand count")
	PY
'
test_expect_success 'text for people, default log2 bins' '
	run 0 "$ARCHSCOPE" memhist --from "$FIX/memhist-amd.jsonl"
	contains "$TMP/out" "samples by latency and data source"
	contains "$TMP/out" "latency cy  *L1  *LFB  *L2  *L3  *local DRAM  *remote DRAM  *remote cache  *other"
	contains "$TMP/out" ">= 2048"
'
test_expect_success 'a bad line names the file and line' '
	printf "{\"latency_cy\": 3, \"data_src\": 1}\n{\"latency_cy\": \"x\", \"data_src\": 1}\n" >"$TMP/bad.jsonl"
	run 2 "$ARCHSCOPE" memhist --from "$TMP/bad.jsonl"
	contains "$TMP/err" "bad.jsonl'\'' line 2"
'
test_expect_success 'a missing file' '
	run 2 "$ARCHSCOPE" memhist --from "$TMP/nonexistent"
'
test_expect_success 'bins that do not increase' '
	run 2 "$ARCHSCOPE" memhist --bins 8,4 --from "$FIX/memhist-amd.jsonl"
	contains "$TMP/err" "increasing edges"
'
test_done
