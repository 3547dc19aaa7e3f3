# numa: bad input is a clear error with exit 2 (unknown nodes, more threads than the node has CPUs,
# a matrix of the wrong shape, flows that do not parse), never a crash. (More cases of flow
# syntax and matrix files: tests/unit/u-numa*.c.)
. "$(dirname "$0")/lib.sh"
fix=$ROOT/tests/fixtures/numa
run 2 "$ARCHSCOPE" numa
contains "$TMP/err" "no subcommand"
run 2 "$ARCHSCOPE" numa matirx
contains "$TMP/err" "unknown subcommand 'matirx'"
run 2 "$ARCHSCOPE" numa load 0:9:1 --dry-run
contains "$TMP/err" "flow 0:9:1: no NUMA node 9 (this machine has"
run 2 "$ARCHSCOPE" numa load 0:0:1000
contains "$TMP/err" "flow 0:0:1000: node 0 has"
contains "$TMP/err" "not 1000"
run 2 "$ARCHSCOPE" numa load 0:0
contains "$TMP/err" "expected SRC:DST:THREADS"
run 2 "$ARCHSCOPE" numa load
contains "$TMP/err" "no flow"
run 2 "$ARCHSCOPE" numa load 0:0:1 --topology "$fix/4node.xml"
contains "$TMP/err" "give --dry-run too"
run 2 "$ARCHSCOPE" numa load 0:0:1 --dry-run --topology "$TMP/none.xml"
contains "$TMP/err" "none.xml"
run 2 "$ARCHSCOPE" numa load 0:0:1 --dry-run --predict "$fix/matrix-bad-shape.json"
contains "$TMP/err" "bandwidth_1thread_gbs\[0\] must have 2 entries, it has 3"
run 2 "$ARCHSCOPE" numa model --flow 0:0:1
contains "$TMP/err" "--matrix is required"
run 2 "$ARCHSCOPE" numa model --matrix "$fix/matrix-bad-shape.json" --flow 0:0:1
contains "$TMP/err" "matrix-bad-shape.json': results.bandwidth_1thread_gbs\[0\] must have 2 entries"
run 2 "$ARCHSCOPE" numa model --matrix "$fix/matrix-2node.json" --flow 0:2:1
contains "$TMP/err" "the matrix has no node 2"
printf '{"results": {"nodes": [0, 1], "bandwidth_gbs": [[1, 2]], "bandwidth_1thread_gbs": [[1, 1], [1, 1]]}}' >"$TMP/short.json"
run 2 "$ARCHSCOPE" numa model --matrix "$TMP/short.json" --flow 0:0:1
contains "$TMP/err" "results.bandwidth_gbs must be a 2 x 2 matrix (2 nodes), it has 1 rows"
run 2 "$ARCHSCOPE" numa model --matrix "$TMP/missing.json" --flow 0:0:1
contains "$TMP/err" "cannot open matrix file"
run 2 "$ARCHSCOPE" numa matrix --size 1kB
contains "$TMP/err" "at least 1MiB"
run 2 "$ARCHSCOPE" numa matrix --kernel nosuch --size 8MiB
exit 0
