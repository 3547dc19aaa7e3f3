# Ctrl-C: SIGINT to mpirun in the middle of a run on this machine ends every rank within seconds;
# rank 0 says where the run was, nothing is printed as if it had finished, --raw keeps complete
# files of what was measured, and no rank is left running.
. "$(dirname "$0")/lib.sh"
require MPI
. "$ROOT/tests/cli/mpi.sh"

mpirun --allow-run-as-root --oversubscribe --bind-to none --mca btl self,vader --mca mpi_yield_when_idle 1 \
	--mca oob_tcp_if_include lo -np 4 "$ARCHSCOPE" cluster --skip nodes --reps 20000 --raw "$TMP/raw" \
	>"$TMP/out" 2>"$TMP/err" &
job=$!
for i in $(seq 300); do [ -f "$TMP/raw/latency-us.csv" ] && break; sleep 0.1; done
[ -f "$TMP/raw/latency-us.csv" ] || { kill $job; fail "no latency-us.csv after 30 s: $(cat "$TMP/err")"; }
kill -INT $job
start=$(date +%s)
rc=0
wait $job || rc=$?
elapsed=$(($(date +%s) - start))
test_expect_success 'SIGINT ends every rank within 20 s, mpirun exits non-zero, nothing printed as if finished' '
	[ "$elapsed" -le 20 ] || fail "mpirun took more than 20 s to end after SIGINT"
	[ "$rc" -ne 0 ] || fail "mpirun exited 0 after SIGINT"
	[ ! -s "$TMP/out" ] || fail "results printed after an interrupt"
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
test_expect_success '--raw keeps complete files of what was measured, no temporary file' '
	for f in ranks.csv latency-us.csv latency-p99-us.csv; do
		[ -f "$TMP/raw/$f" ] || fail "no $f"
		[ "$(wc -l <"$TMP/raw/$f")" -eq 5 ] || fail "$f is not complete: $(cat "$TMP/raw/$f")"
	done
	! ls "$TMP/raw" | grep -q "\.tmp\|~" || fail "a temporary file is left in --raw: $(ls "$TMP/raw")"
'
test_expect_success 'no rank is left running' '
	sleep 1
	! pgrep -f -- "--raw $TMP/raw" >/dev/null || fail "ranks left running: $(pgrep -af -- "--raw $TMP/raw")"
'
test_done
