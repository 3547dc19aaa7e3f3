# numa: bad input is a clear error with exit 2 (unknown nodes, more threads than the node has CPUs,
# a matrix of the wrong shape, flows that do not parse), never a crash. (More cases of flow
# syntax and matrix files: tests/unit/u-numa*.c.)
. "$(dirname "$0")/lib.sh"
fix=$ROOT/tests/fixtures/numa
test_expect_success 'numa without a subcommand' '
	run 2 "$ARCHSCOPE" numa
	contains "$TMP/err" "no subcommand"
'
test_expect_success 'numa with an unknown subcommand' '
	run 2 "$ARCHSCOPE" numa matirx
	contains "$TMP/err" "unknown subcommand '\''matirx'\''"
'
test_expect_success 'numa load: a node the machine lacks' '
	run 2 "$ARCHSCOPE" numa load 0:9:1 --dry-run
	contains "$TMP/err" "flow 0:9:1: no NUMA node 9 (this machine has"
'
test_expect_success 'numa load: more threads than the node has CPUs' '
	run 2 "$ARCHSCOPE" numa load 0:0:1000
	contains "$TMP/err" "flow 0:0:1000: node 0 has"
	contains "$TMP/err" "not 1000"
'
test_expect_success 'numa load: a flow without THREADS' '
	run 2 "$ARCHSCOPE" numa load 0:0
	contains "$TMP/err" "expected SRC:DST:THREADS"
'
test_expect_success 'numa load without a flow' '
	run 2 "$ARCHSCOPE" numa load
	contains "$TMP/err" "no flow"
'
test_expect_success 'numa load --topology without --dry-run' '
	run 2 "$ARCHSCOPE" numa load 0:0:1 --topology "$fix/4node.xml"
	contains "$TMP/err" "give --dry-run too"
'
test_expect_success 'numa load --topology of a missing file' '
	run 2 "$ARCHSCOPE" numa load 0:0:1 --dry-run --topology "$TMP/none.xml"
	contains "$TMP/err" "none.xml"
'
test_expect_success 'numa load --predict: a matrix of the wrong shape' '
	run 2 "$ARCHSCOPE" numa load 0:0:1 --dry-run --predict "$fix/matrix-bad-shape.json"
	contains "$TMP/err" "bandwidth_1thread_gbs\[0\] must have 2 entries, it has 3"
'
test_expect_success 'numa model without --matrix' '
	run 2 "$ARCHSCOPE" numa model --flow 0:0:1
	contains "$TMP/err" "--matrix is required"
'
test_expect_success 'numa model --matrix: a row of the wrong length' '
	run 2 "$ARCHSCOPE" numa model --matrix "$fix/matrix-bad-shape.json" --flow 0:0:1
	contains "$TMP/err" "matrix-bad-shape.json'\'': results.bandwidth_1thread_gbs\[0\] must have 2 entries"
'
test_expect_success 'numa model: a flow to a node the matrix lacks' '
	run 2 "$ARCHSCOPE" numa model --matrix "$fix/matrix-2node.json" --flow 0:2:1
	contains "$TMP/err" "the matrix has no node 2"
'
test_expect_success 'numa model --matrix: too few rows' '
	printf "{\"results\": {\"nodes\": [0, 1], \"bandwidth_gbs\": [[1, 2]], \"bandwidth_1thread_gbs\": [[1, 1], [1, 1]]}}" >"$TMP/short.json"
	run 2 "$ARCHSCOPE" numa model --matrix "$TMP/short.json" --flow 0:0:1
	contains "$TMP/err" "results.bandwidth_gbs must be a 2 x 2 matrix (2 nodes), it has 1 rows"
'
test_expect_success 'numa model --matrix of a missing file' '
	run 2 "$ARCHSCOPE" numa model --matrix "$TMP/missing.json" --flow 0:0:1
	contains "$TMP/err" "cannot open matrix file"
'
test_expect_success 'numa matrix --size below 1 MiB' '
	run 2 "$ARCHSCOPE" numa matrix --size 1kB
	contains "$TMP/err" "at least 1MiB"
'
test_expect_success 'numa matrix --kernel unknown' '
	run 2 "$ARCHSCOPE" numa matrix --kernel nosuch --size 8MiB
'
test_done
