# cluster's results are what their description says (machine/result-cluster.h, issue 48 item 1):
# small runs of 2 and 3 ranks on this machine, with every part and with parts skipped, are checked
# against it by `machine schema --check`.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/cli/mpi.sh"

small="--size 64KiB --window 8 --bursts 3 --reps 50 --sizes 8,64KiB --coll-sizes 8"

test_expect_success MPI 'every part (2 ranks, all node figures, --sizes) is what the description says' '
	run 0 mpi_local 2 "$ARCHSCOPE" cluster --json $small --pair-sizes 8,64KiB &&
	cp "$TMP/out" "$TMP/all.json" &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/all.json" cluster &&
	contains "$TMP/out" "cluster results as described"
'

test_expect_success MPI 'parts skipped (3 ranks, no nodes, bandwidth, shift or contention) are too' '
	run 0 mpi_local 3 "$ARCHSCOPE" cluster --json $small --skip bandwidth,shift,contention --probes none &&
	cp "$TMP/out" "$TMP/skip.json" &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/skip.json" cluster &&
	cp "$TMP/skip.json" "$TMP/out" &&
	test "$(json_get "d[\"results\"][\"bandwidth_gbs\"]")" = None || fail "bandwidth_gbs is not null when skipped"
'

test_expect_success MPI 'a matrix that is not numbers is refused, by its path' '
	run 0 mpi_local 2 "$ARCHSCOPE" cluster --json $small --skip nodes,bandwidth,shift,loggp,contention &&
	python3 -c "import json,sys; d=json.load(sys.stdin); d[\"results\"][\"latency_us\"][0][1]=\"fast\"; json.dump(d,open(sys.argv[1],\"w\"))" \
		"$TMP/bad.json" <"$TMP/out" &&
	run 1 "$ARCHSCOPE" machine schema --check "$TMP/bad.json" cluster &&
	contains "$TMP/err" "latency_us"
'

test_done
