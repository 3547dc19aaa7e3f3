# bench and numa results match their descriptions (machine/result-bench.h, result-numa.h): every
# view's --json checked by 'machine schema --check', and numa model's matrix reader refuses a file
# whose keys differ from the description, naming the key.
. "$(dirname "$0")/lib.sh"
fix=$ROOT/tests/fixtures/numa
test_expect_success 'bench KERNEL -s: the runs match "bench"' '
	run 0 "$ARCHSCOPE" bench copy -s 64KiB -t 1 --reps 2 --min-time 0.01 --json &&
	{ json_get "d[\"results\"][\"runs\"][0][\"kernel\"]" | grep -qx copy || fail "runs[0].kernel"; } &&
	cp "$TMP/out" "$TMP/bench.json" &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/bench.json" bench
'
test_expect_success 'bench --list matches "bench --list"' '
	run 0 "$ARCHSCOPE" bench --list --json &&
	cp "$TMP/out" "$TMP/list.json" &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/list.json" "bench --list"
'
test_expect_success 'bench --ecm matches "bench --ecm"' '
	run 0 "$ARCHSCOPE" bench --ecm copy --reps 1 --min-time 0.01 --json &&
	cp "$TMP/out" "$TMP/ecm.json" &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/ecm.json" "bench --ecm"
'
test_expect_success 'bench --threads-scaling matches "bench --threads-scaling"' '
	run 0 "$ARCHSCOPE" bench --threads-scaling sum -t 1 --reps 1 --min-time 0.01 --json &&
	cp "$TMP/out" "$TMP/scaling.json" &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/scaling.json" "bench --threads-scaling"
'
test_expect_success 'a bench document is not a numa matrix' '
	run 0 "$ARCHSCOPE" bench --list --json &&
	cp "$TMP/out" "$TMP/list.json" &&
	run 1 "$ARCHSCOPE" machine schema --check "$TMP/list.json" "numa matrix"
'
test_expect_success 'numa matrix matches "numa matrix", and numa model reads it back' '
	run 0 "$ARCHSCOPE" numa matrix --quick --size 8MiB --json &&
	node=$(json_get "d[\"results\"][\"nodes\"][0]") &&
	cp "$TMP/out" "$TMP/m.json" &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/m.json" "numa matrix" &&
	run 0 "$ARCHSCOPE" numa model --matrix "$TMP/m.json" --flow "$node:$node:1" --json &&
	cp "$TMP/out" "$TMP/model.json" &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/model.json" "numa model"
'
test_expect_success 'numa model on a recorded matrix matches "numa model"' '
	run 0 "$ARCHSCOPE" numa model --matrix "$fix/matrix-2node.json" --flow 0:0:4 --flow 1:0:8 --json &&
	cp "$TMP/out" "$TMP/model.json" &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/model.json" "numa model"
'
test_expect_success 'numa load --dry-run matches "numa load"' '
	run 0 "$ARCHSCOPE" numa load 0:0:1 --dry-run --json &&
	cp "$TMP/out" "$TMP/load.json" &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/load.json" "numa load"
'
test_expect_success 'numa load (one flow, briefly) matches "numa load"' '
	run 0 "$ARCHSCOPE" numa load 0:0:1 --duration 0.3 --size 1MiB --json -q &&
	cp "$TMP/out" "$TMP/load.json" &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/load.json" "numa load"
'
test_expect_success 'numa model --matrix: a key of the wrong kind is named' '
	sed "s/\"kernel\": \"load-avx2\"/\"kernel\": 5/" "$fix/matrix-2node.json" >"$TMP/kind.json" &&
	run 2 "$ARCHSCOPE" numa model --matrix "$TMP/kind.json" --flow 0:0:1 &&
	contains "$TMP/err" "kind.json'\'': results.kernel: a value where a string is described"
'
test_expect_success 'numa model --matrix: a key the description does not name is named' '
	sed "s/\"kernel\": /\"kernal\": /" "$fix/matrix-2node.json" >"$TMP/key.json" &&
	run 2 "$ARCHSCOPE" numa model --matrix "$TMP/key.json" --flow 0:0:1 &&
	contains "$TMP/err" "results.kernal: a key the description does not name"
'
test_done
