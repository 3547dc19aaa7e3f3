# Sampled spinning in time, not in samples (issue 36 item 3): examples/stack/spin-timed.c spins on
# a hand-written ticket lock and times every wait with its thread's CPU clock; stack's user_spin
# (each thread's CPU time x the share of its samples in spin loops) must match what the program
# timed, within 5 % of N, with main only joining the workers and with main working too, at 1, 2
# and 4 threads (4 threads on fewer CPUs: a preempted lock holder makes the others spin whole
# time slices; both sides count CPU time, so other load changes neither).
. "$(dirname "$0")/lib.sh"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
EX=$(dirname "$ARCHSCOPE")
[ -x "$EX/stack-spin-timed" ] || skip "needs the stack examples beside $ARCHSCOPE"
for mode in join work; do
	rm -f "$TMP/log"
	run 0 "$ARCHSCOPE" stack -q -t 1,2,4 -r 1 --json -- "$EX/stack-spin-timed" "{T}" 600 $mode "$TMP/log"
	"$PY" -c "import json, sys; r = json.load(open('$TMP/out'))['results']; sys.exit('sampling' in r)" ||
		skip "task-clock sampling refused here"
	"$PY" - "$TMP/out" "$TMP/log" $mode <<'PY' || fail "$mode: sampled spinning differs from the program's own timing"
import json, sys
runs = json.load(open(sys.argv[1]))["results"]["runs"]
timed = {}
for line in open(sys.argv[2]):  # the last run of each N is the one kept (a rejected one is repeated)
    n, s = line.split()
    timed[int(n)] = float(s)
ok = True
for r in runs:
    n = r["threads"]
    want = timed[n] / r["span_s"]
    got = r["by_primitive"]["user_spin"]
    print("%s N=%d: the program timed %.3f, stack %.3f (x of %d; span %.3f s)" % (sys.argv[3], n, want, got, n, r["span_s"]))
    ok &= abs(got - want) <= 0.05 * n
    ok &= abs(sum(r["components"].values()) - n) < 1e-6
assert sorted(r["threads"] for r in runs) == [1, 2, 4]
sys.exit(0 if ok else 1)
PY
done
exit 0
