# Nothing lost: kill -9 of a rank in the middle of the shift sweep (every rank sends to rank + k at
# once, one step per k); mpirun ends the run, and --raw DIR/bandwidth-shift-gbs.csv holds a figure
# for every pair of every step that DIR/progress.txt calls done (a complete file, no temporary left).
. "$(dirname "$0")/lib.sh"
require MPI
. "$ROOT/tests/cli/mpi.sh"

# 4 ranks: the shift's steps short (a fraction of a second: before issue 50 the matrices were written at
# most once a second, so a step done was not in the files when the run was cut soon after it), then a
# long phase (osu's counts at 4 MiB) so that the run is still going when it is cut (between them
# the short second latency sweep, "latency again")
mpi_local 4 "$ARCHSCOPE" cluster --skip nodes,bandwidth,loggp,contention,collectives --reps 10 --size 256KiB --window 64 \
	--bursts 4 --sizes 4MiB --osu-counts --raw "$TMP/raw" >"$TMP/out" 2>"$TMP/err" &
job=$!
# progress.txt holds the last step done: on a quiet machine the shift and the second latency sweep
# take 0.2 s together, so the poll may first see "latency again" (the shift whole by then), during
# the 5 s of point to point that follow
done_re="^(shift step [0-9] of 3|latency again step [0-9]+ of [0-9]+) done"
for i in $(seq 600); do grep -Eq "$done_re" "$TMP/raw/progress.txt" 2>/dev/null && break; sleep 0.05; done
grep -Eq "$done_re" "$TMP/raw/progress.txt" 2>/dev/null ||
	{ kill $job; fail "no shift step done after 30 s: $(cat "$TMP/err" "$TMP/raw/progress.txt" 2>/dev/null)"; }
victim=$(pgrep -f -- "--raw $TMP/raw" | while read -r p; do
	[ "$(cat /proc/$p/comm 2>/dev/null)" = archscope-clust ] && grep -qz '^OMPI_COMM_WORLD_RANK=2$' /proc/$p/environ && echo $p
done | head -1)
[ -n "$victim" ] || { kill $job; fail "no rank 2 found"; }
kill -KILL "$victim"
rc=0
wait $job || rc=$?
test_expect_success 'mpirun ends the run, exits non-zero, prints no results' '
	[ "$rc" -ne 0 ] || fail "mpirun exited 0 after a rank was killed"
	[ ! -s "$TMP/out" ] || fail "results printed after a rank died"
'
test_expect_success 'every shift step progress.txt calls done is in bandwidth-shift-gbs.csv' '
	cat "$TMP/raw/progress.txt"
	python3 - "$TMP/raw" <<-\PY || fail "--raw files (above)"
	import csv, math, os, re, sys
	d = sys.argv[1]
	prog = open(os.path.join(d, "progress.txt")).read()
	m = re.search(r"^shift step (\d+) of 3 done$", prog, re.M)
	# the shift is followed by the second latency sweep of the slow links: done there, the shift is whole
	after = re.search(r"^latency again step \d+ of \d+ done$", prog, re.M)
	assert m or after, prog
	done = int(m.group(1)) if m else 3
	held = re.search(r"hold every step up to (shift|latency again) step (\d+)", prog)
	if held:
	    done = int(held.group(2)) if held.group(1) == "shift" else 3
	rows = list(csv.reader(open(os.path.join(d, "bandwidth-shift-gbs.csv"))))
	assert rows[0] == ["from", "0", "1", "2", "3"] and len(rows) == 5 and all(len(r) == 5 for r in rows), rows
	m = [[float(x) for x in r[1:]] for r in rows[1:]]
	for k in range(1, done + 1):
	    for i in range(4):
	        v = m[(i - k) % 4][i]
	        assert math.isfinite(v) and v > 0, ("step", k, "to", i, v, rows)
	print("steps done:", done, "all in the file")
	PY
	! ls "$TMP/raw" | grep -q "\.tmp\|~" || fail "a temporary file is left in --raw: $(ls "$TMP/raw")"
'
test_expect_success 'no rank is left running' '
	sleep 1
	! pgrep -f -- "--raw $TMP/raw" >/dev/null || fail "ranks left running: $(pgrep -af -- "--raw $TMP/raw")"
'
test_done
