#!/bin/bash
# A yield that returns at once in a loop is spinning (issue 49 item 3; OpenBLAS's workers poll a
# flag with sched_yield and keep their CPU): a two-thread program whose main thread polls a flag
# with sched_yield while the other works. The stack files the yield time that the waiter's
# off-CPU and run-queue time (schedstat) cannot cover under spinning (by_primitive.yield_spin),
# says why, and never files more there than the CPU time the waiter itself measured in its poll.
# Under load the waiter's yields do give the CPU away part of the time: the test asserts the
# lower bound only when the waiter's poll kept a CPU for a tenth of a second.
. "$(dirname "$0")/lib.sh"
command -v gcc >/dev/null || skip "needs gcc in PATH"
cat >"$TMP/yieldpoll.c" <<'C'
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static volatile int done;
static volatile uint64_t sink;
static long units;
static void work(void)
{
	uint64_t x = 1;
	for (long u = 0; u < units * 1000000L; u++)
		x = x * 6364136223846793005u + 1442695040888963407u;
	sink += x;
}
static void *worker(void *arg)
{
	(void)arg;
	work();
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	return 0;
}
static double cpu_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}
int main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	units = atol(argv[2]);
	if (atol(argv[1]) < 2) {
		work();
		return 0;
	}
	pthread_t th;
	pthread_create(&th, 0, worker, 0);
	double c0 = cpu_s();
	long yields = 0;
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
		sched_yield();
		yields++;
	}
	double c1 = cpu_s();
	pthread_join(th, 0);
	FILE *f = fopen(argv[3], "a");
	if (!f)
		return 1;
	fprintf(f, "%.6f %ld\n", c1 - c0, yields);
	fclose(f);
	return 0;
}
C
(cd "$TMP" && gcc -O2 -g -pthread -o yieldpoll yieldpoll.c) 2>"$TMP/cc.err" ||
	skip "gcc does not build the test's program: $(head -3 "$TMP/cc.err")"

test_expect_success 'the waiter polls with sched_yield, its CPU time measured' '
	"$TMP/yieldpoll" 2 20 "$TMP/plain.log" || fail "yieldpoll fails"
	cat "$TMP/plain.log"
	awk "{ exit !(\$2 > 0) }" "$TMP/plain.log" || fail "the waiter never yielded"
'
test_expect_success 'yield time kept on the CPU is spinning, with the reason, never above the waiter'"'"'s CPU time' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- "$TMP/yieldpoll" "{T}" 400 "$TMP/poll.log"
	cp "$TMP/out" "$TMP/stack.json"
	cat "$TMP/poll.log"
	python3 - "$TMP/stack.json" "$TMP/poll.log" <<'"'"'PY'"'"' || fail "stack does not file the yield poll as spinning"
import json, sys
d = json.load(open(sys.argv[1]))
run = [r for r in d["results"]["runs"] if r["threads"] == 2][0]
cpu = [float(l.split()[0]) for l in open(sys.argv[2]) if l.strip()]
span = run["span_s"]
bp = run["by_primitive"]
ys = run.get("yield_spin_s", 0.0)
print("waiter CPU in its poll(s):", cpu, "yield_spin_s:", ys, "by_primitive:", {k: v for k, v in bp.items() if v})
print("why:", run.get("yield_spin_why"))
assert "yield_spin" in bp and "sched_yield" in bp, bp
# never more spinning than the waiter kept a CPU in its poll (10 ms of clock granularity)
assert ys <= max(cpu) + 0.01 + 0.02 * max(cpu), (ys, cpu)
assert abs(bp["yield_spin"] * span - ys) <= 0.01 + 0.05 * ys, (bp["yield_spin"], span, ys)
if min(cpu) >= 0.1:
	assert ys >= 0.3 * min(cpu), ("the poll kept its CPU but little of it is yield_spin", ys, cpu)
	assert "sched_yield" in run["yield_spin_why"] and "spinning" in run["yield_spin_why"], run["yield_spin_why"]
	assert run["components"]["spinning"] >= bp["yield_spin"] - 1e-9, run["components"]
PY
'
test_expect_success 'the result is described' '
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/stack.json" stack
'
test_expect_success 'text output names the part and the reason' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 -- "$TMP/yieldpoll" "{T}" 400 "$TMP/text.log"
	cat "$TMP/out"
	if awk "{ exit !(\$1 >= 0.1) }" "$TMP/text.log"; then
		contains "$TMP/out" "yield_spin"
		contains "$TMP/out" "sched_yield returned at once"
	fi
'
test_done
