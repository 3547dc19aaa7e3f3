# numa load --dry-run on the synthetic 2- and 4-node topologies of tests/fixtures/numa: which CPUs
# each flow gets (one per core first: 0:1:5 on cores 0-3, then the second thread of core 0; flows
# from one node disjoint), and the errors there.
. "$(dirname "$0")/lib.sh"
fix=$ROOT/tests/fixtures/numa
test_expect_success 'two nodes with SMT: one thread per core first, flows from one node disjoint' '
	run 0 "$ARCHSCOPE" numa load --dry-run --topology "$fix/2node-smt.xml" 0:1:5 1:0:2 0:0:3
	contains "$TMP/out" "NUMA nodes  2"
	grep -Eq "^ *0:1:5 +0,2,4,6,1$" "$TMP/out" || fail "0:1:5 should run on 0,2,4,6,1"
	grep -Eq "^ *1:0:2 +8,10$" "$TMP/out" || fail "1:0:2 should run on 8,10"
	grep -Eq "^ *0:0:3 +3,5,7$" "$TMP/out" || fail "0:0:3 should run on 3,5,7"
'
test_expect_success 'four nodes with --predict: the CPUs, the predicted rates and the path' '
	run 0 "$ARCHSCOPE" numa load --dry-run --topology "$fix/4node.xml" 0:3:3 3:0:2 2:1:1 --predict "$fix/matrix-4node.json"
	contains "$TMP/out" "NUMA nodes  4"
	contains "$TMP/out" "nothing ran"
	grep -Eq "^ *0:3:3 +0-2 +24.00 GB/s +8.00 GB/s +path 0->3$" "$TMP/out" || fail "0:3:3: CPUs 0-2, 24 GB/s on the path"
	grep -Eq "^ *3:0:2 +9-10 " "$TMP/out" || fail "3:0:2 should run on 9-10"
	grep -Eq "^ *2:1:1 +6 " "$TMP/out" || fail "2:1:1 should run on 6"
'
test_expect_success 'a node the topology lacks' '
	run 2 "$ARCHSCOPE" numa load --dry-run --topology "$fix/4node.xml" 0:4:1
	contains "$TMP/err" "no NUMA node 4 (this machine has 4 nodes: 0, 1, 2, 3)"
'
test_expect_success 'flows from one node asking for more threads than it has CPUs' '
	run 2 "$ARCHSCOPE" numa load --dry-run --topology "$fix/4node.xml" 1:0:2 1:2:2
	contains "$TMP/err" "the flows from node 1 ask for 4 threads, but it has 3 CPUs"
'
test_expect_success 'one flow asking for more threads than the node has CPUs' '
	run 2 "$ARCHSCOPE" numa load --dry-run --topology "$fix/2node-smt.xml" 1:1:9
	contains "$TMP/err" "node 1 has 8 CPUs this process may use, not 9"
'
test_done
