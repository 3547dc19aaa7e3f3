# Values that would be silently replaced by others are usage errors (issue 29): bench -s 0, -t 0,
# --cpus 0,0, model --cpu on a CPU this process may not use; no command exits 2; machine diff exits
# 1 when the files differ. (analyze on a long curve: t0188.)
. "$(dirname "$0")/lib.sh"
test_expect_success 'bench -s 0' '
	run 2 "$ARCHSCOPE" bench copy -s 0
	contains "$TMP/err" "needs at least"
'
test_expect_success 'bench -s 1B' '
	run 2 "$ARCHSCOPE" bench copy -s 1B
	contains "$TMP/err" "needs at least"
'
test_expect_success 'bench -t 0' '
	run 2 "$ARCHSCOPE" bench copy -s 1MiB -t 0
	contains "$TMP/err" "must be 1 to"
'
test_expect_success 'bench --cpus 0,0' '
	run 2 "$ARCHSCOPE" bench copy -s 1MiB --cpus 0,0
	contains "$TMP/err" "cpu 0 is listed twice"
'
test_expect_success 'bench --cpus 0-1,1' '
	run 2 "$ARCHSCOPE" bench copy -s 1MiB --cpus 0-1,1
	contains "$TMP/err" "cpu 1 is listed twice"
'
test_expect_success 'model --cpu on a CPU this process may not use' '
	cpu=$(python3 -c "import os; print(max(os.sched_getaffinity(0)) + 1)")
	run 2 "$ARCHSCOPE" model "$ROOT/kernels/copy.c" -m "$ROOT/machines/nehalem-i7-920.yaml" -D N 1000 --cpu "$cpu"
	contains "$TMP/err" "cpu"
'
test_expect_success 'no command exits 2' '
	run 2 "$ARCHSCOPE"
	contains "$TMP/err" "usage: archscope"
'
test_expect_success 'machine diff of a file with itself exits 0' '
	run 0 "$ARCHSCOPE" machine diff "$ROOT/machines/nehalem-i7-920.yaml" "$ROOT/machines/nehalem-i7-920.yaml"
'
test_expect_success 'machine diff of two machines exits 1' '
	run 1 "$ARCHSCOPE" machine diff "$ROOT/machines/nehalem-i7-920.yaml" "$ROOT/machines/core2-q9550.yaml"
	contains "$TMP/out" "<>"
'
test_done
