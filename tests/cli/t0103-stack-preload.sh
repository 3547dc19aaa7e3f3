# The preload library never changes what a program sees (item 12): every wrapped primitive gives
# the same results, errno values, output and exit status with and without it
# (examples/stack/primitives.c), it writes nothing without $ARCHSCOPE_STACK_DIR, and with it the
# record holds the waits of each primitive and the executable's mapping.
. "$(dirname "$0")/lib.sh"
# the system python when there is one: a version manager's shim can take seconds to start
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
EX=$(dirname "$ARCHSCOPE")
LIB=$EX/libarchscope-preload.so
[ -x "$EX/stack-primitives" ] && [ -f "$LIB" ] || skip "needs stack-primitives and libarchscope-preload.so beside $ARCHSCOPE"
"$EX/stack-primitives" >"$TMP/plain" 2>&1; rc_plain=$?
mkdir "$TMP/rec"
ARCHSCOPE_STACK_DIR=$TMP/rec LD_PRELOAD=$LIB "$EX/stack-primitives" >"$TMP/pre" 2>&1; rc_pre=$?
test_expect_success 'every primitive: the same exit status and output under the library' '
	[ "$rc_plain" = 3 ] && [ "$rc_pre" = 3 ] || fail "exit status $rc_plain without, $rc_pre with the library (3 expected)"
	diff "$TMP/plain" "$TMP/pre" >&2 || fail "the output differs under the library"
	contains "$TMP/pre" "errorcheck relock: 35"
	contains "$TMP/pre" "serial threads 1"
'
test_expect_success 'without a record directory: the same output' '
	LD_PRELOAD=$LIB "$EX/stack-primitives" >"$TMP/off" 2>&1
	diff "$TMP/plain" "$TMP/off" >&2 || fail "the output differs under the library without a record directory"
'
# one record: the process, three threads, and waits in cond, semaphore, sleep, futex, barrier, join
test_expect_success 'the record: three threads, the waits of each primitive, the executable'\''s mapping' '
	ls "$TMP/rec" | grep -q '\''^rec\.[0-9]*\.[0-9]*$'\'' || fail "no record written"
	"$PY" - "$TMP"/rec/rec.* <<-\PY || fail "record content"
	import sys
	names = ["mutex", "rwlock", "cond", "barrier", "semaphore", "sleep", "futex", "sched_yield", "pthread_spin", "join",
	         "omp_barrier", "omp_taskwait", "omp_lock", "omp_idle", "mpi", "wait_child", "poll", "mpi_init"]
	lines = open(sys.argv[1]).read().split("\n")
	T = [l.split() for l in lines if l.startswith("T ")]
	assert len(T) == 3, T
	wait = {n: sum(int(t[6 + i]) for t in T) for i, n in enumerate(names)}
	calls = {n: sum(int(t[6 + len(names) + i]) for t in T) for i, n in enumerate(names)}
	for n in ("mutex", "cond", "semaphore", "sleep", "barrier", "join"):
	    assert wait[n] > 0 and calls[n] > 0, (n, wait, calls)
	assert wait["cond"] >= 4e6 and wait["semaphore"] >= 4e6, wait  # two 5 ms timeouts
	assert calls["futex"] == 1 and calls["sched_yield"] == 1, calls
	# waits are timed in CPU counter ticks and converted to ns by the run'\''s own ratio: a thread'\''s
	# waits fit in its span, and the main thread (timeouts, sleep, join) waits most of its span
	for t in T:
	    span = int(t[3]) - int(t[2])
	    assert sum(int(x) for x in t[6:6 + len(names)]) <= 1.02 * span + 1e5, (t, span)
	main = T[0]
	assert sum(int(x) for x in main[6:6 + len(names)]) >= 0.5 * (int(main[3]) - int(main[2])), main
	assert any(l.startswith("M ") and "stack-primitives" in l for l in lines)
	PY
'
test_done
