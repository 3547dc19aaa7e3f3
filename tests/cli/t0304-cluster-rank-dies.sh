# A rank that dies: killed on node1 in the middle of the latency sweep, mpirun ends the run; rank 0
# says where the run was and which ranks had not reported, mpirun names the rank and its node, and
# --raw keeps the placement and the matrices measured before (complete files, never half written).
. "$(dirname "$0")/lib.sh"
require MPI NETNS
. "$ROOT/tests/cli/mpi.sh"
netns_up 2 || skip "needs NETNS ($NETNS_WHY)"

netns_mpirun 2 "$ARCHSCOPE" cluster --skip nodes --reps 20000 --raw "$TMP/raw" >"$TMP/out" 2>"$TMP/err" &
job=$!
for i in $(seq 300); do [ -f "$TMP/raw/latency-us.csv" ] && break; sleep 0.1; done
[ -f "$TMP/raw/latency-us.csv" ] || { kill $job; fail "no latency-us.csv after 30 s: $(cat "$TMP/err")"; }
victim=
for p in $(ip netns pids "${NETNS_PFX}n1"); do
	[ "$(cat /proc/$p/comm 2>/dev/null)" = archscope-clust ] && victim=$p
done
[ -n "$victim" ] || { kill $job; fail "no archscope-cluster process in node1"; }
kill -KILL "$victim"
rc=0
wait $job || rc=$?
test_expect_success 'mpirun ends the run, exits non-zero and names the rank and its node' '
	[ "$rc" -ne 0 ] || fail "mpirun exited 0 after a rank was killed"
	contains "$TMP/err" "mpirun noticed that process rank [0-9]* with PID $victim on node $NETNS_NET.2 exited on signal 9"
	[ ! -s "$TMP/out" ] || fail "results printed after a rank died"
'
# where the run was: --raw DIR/progress.txt, written at every step; and rank 0's line, on stderr
# and in DIR/stopped.txt, when rank 0 lived to get mpirun's SIGTERM (Open MPI may also end it
# outright once the others are gone)
test_expect_success 'where the run was: progress.txt, and rank 0'\''s line when it lived to say it' '
	contains "$TMP/raw/progress.txt" "^[a-z ]* step [0-9]* of [0-9]* done$"
	if [ -f "$TMP/raw/stopped.txt" ]; then
		contains "$TMP/raw/stopped.txt" "archscope: error: the run ended by .* during [a-z ]* step [0-9]* of [0-9]*.*holds what was measured before"
	else
		echo "# rank 0 ended without its line this time"
	fi
'
test_expect_success '--raw keeps the placement and the pairs measured before, complete' '
	python3 - "$TMP/raw" <<-\PY || fail "--raw files (above)"
	import csv, math, os, sys
	d = sys.argv[1]
	ranks = list(csv.DictReader(open(os.path.join(d, "ranks.csv"))))
	assert [(r["rank"], r["host"], r["node"]) for r in ranks] == [("0", "node0", "0"), ("1", "node0", "0"), ("2", "node1", "1"), ("3", "node1", "1")], ranks
	rows = list(csv.reader(open(os.path.join(d, "latency-us.csv"))))
	assert rows[0] == ["from", "0", "1", "2", "3"] and len(rows) == 5 and all(len(r) == 5 for r in rows), rows
	vals = [float(x) for r in rows[1:] for x in r[1:]]
	measured = [v for v in vals if math.isfinite(v)]
	assert 0 < len(measured) < 12, rows  # some pairs, not all: the run was cut
	PY
'
# nothing is left running in the nodes
test_expect_success 'nothing is left running in the nodes' '
	sleep 1
	for n in 0 1; do
		for p in $(ip netns pids "${NETNS_PFX}n$n"); do
			case $(cat /proc/$p/comm 2>/dev/null) in archscope*|mpirun|orted) fail "left running in node$n: $p $(cat /proc/$p/cmdline | tr "\0" " ")" ;; esac
		done
	done
'
test_done
