# memhist --from: recorded Intel and AMD samples (JSON lines and perf script text) give the
# histograms counted by hand in tests/fixtures/measure/README.md, in count and cost mode.
. "$(dirname "$0")/lib.sh"
FIX="$ROOT/tests/fixtures/measure"
BINS=0,8,16,32,64,128,256,512
for f in memhist-intel.jsonl memhist-intel-perf-script.txt; do
	run 0 "$ARCHSCOPE" memhist --json --bins $BINS --from "$FIX/$f"
	[ "$(json_get 'd["results"]["samples"]')" = 24 ] || fail "$f: samples"
	# rows of the hand count: [l1, lfb, l2, l3, local_dram, remote_dram, remote_cache, other]
	got=$(json_get '[[int(r[k]) for k in ("l1","lfb","l2","l3","local_dram","remote_dram","remote_cache","other")] for r in d["results"]["histogram"]]' | tr -d ' ')
	want='[[5,0,0,0,0,0,0,0],[0,2,2,0,0,0,0,1],[0,1,1,0,0,0,0,0],[0,0,0,2,0,0,0,0],[0,0,0,1,0,0,0,0],[0,0,0,0,2,0,1,1],[0,0,0,0,1,2,1,0],[0,0,0,0,0,1,0,0]]'
	[ "$got" = "$want" ] || fail "$f: histogram $got"
	run 0 "$ARCHSCOPE" memhist --json --mode cost --bins $BINS --from "$FIX/$f"
	[ "$(json_get 'd["results"]["totals"]["remote_dram"]')" = 1170.0 ] || fail "$f: remote DRAM cost"
	[ "$(json_get 'd["results"]["totals"]["l3"]')" = 155.0 ] || fail "$f: L3 cost"
done
for f in memhist-amd.jsonl memhist-amd-perf-script.txt; do
	run 0 "$ARCHSCOPE" memhist --json --bins $BINS --from "$FIX/$f"
	[ "$(json_get 'd["results"]["samples"]')" = 25 ] || fail "$f: samples"
	[ "$(json_get 'd["results"]["totals"]')" = "{'l1': 4.0, 'lfb': 2.0, 'l2': 3.0, 'l3': 6.0, 'local_dram': 3.0, 'remote_dram': 3.0, 'remote_cache': 2.0, 'other': 2.0}" ] ||
		fail "$f: totals $(json_get 'd["results"]["totals"]')"
	run 0 "$ARCHSCOPE" memhist --json --mode cost --bins $BINS --from "$FIX/$f"
	[ "$(json_get 'd["results"]["histogram"][6]["remote_cache"]')" = 860.0 ] || fail "$f: remote cache cost in 256-512"
done
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
