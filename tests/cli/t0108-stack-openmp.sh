# stack on OpenMP programs built with gcc (libgomp: its entry points are wrapped) and clang
# (libomp: OMPT), issue 36 item 2: examples/stack/openmp/imbalance.c waits at each loop's barrier
# (1:3 shares at 2 threads). For each runtime the barrier is counted once, as the construct
# (omp_barrier: "barrier" asleep, "barrier_spin" its spin phase), at the loop's line in the
# program; never again as user spinning and never as blocked_other. With the runtime told to spin (KMP_BLOCKTIME=infinite,
# GOMP_SPINCOUNT=infinite) the spin phase shows as barrier_spin; told to sleep at once (0), it does
# not (on a quiet machine: a spinning thread needs a CPU beside the one it waits for). Critical
# sections show as omp_lock (mutex, lock_spin), taskwait as omp_taskwait; a task's run is never
# its taskwait's wait, and the program's results are the same under the library.
. "$(dirname "$0")/lib.sh"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
SRC=$ROOT/examples/stack/openmp/imbalance.c
check() { # check NAME MODE: the stack in $TMP/out
	"$PY" - "$TMP/out" "$@" <<'PY' || fail "$1 $2: wrong stack (JSON in $TMP/out)"
import json, sys
name, mode = sys.argv[2], sys.argv[3]
r = json.load(open(sys.argv[1]))["results"]["runs"][0]
c, b, n = r["components"], r["by_primitive"], r["threads"]
print(name, mode, {k: round(v, 3) for k, v in c.items()}, {k: round(v, 3) for k, v in b.items() if v > 0.0005},
      r["waiting_for_others_s"], [(s["where"], s["primitive"]) for s in r["sites"]])
assert abs(sum(c.values()) - n) < 1e-6, c
assert b["user_spin"] < 0.02 * n, b                  # the runtime's spinning is never counted twice
ours = {"barrier": b["barrier"] + b["barrier_spin"], "critical": b["mutex"] + b["lock_spin"],
        "taskwait": b["taskwait"] + b["taskwait_spin"] + b["barrier"] + b["barrier_spin"]}[mode]
# the construct's waits are there (the 1:3 barrier by construction; a critical section or a
# taskwait waits only when the threads run at once, which other load may prevent) ...
assert ours > (0.1 * n if mode == "barrier" else 0), (mode, ours)
assert b["blocked_other"] < max(0.5 * ours, 0.02 * n), b  # ... and not as waits no wrapper saw
assert not any(s["primitive"] == "user_spin" for s in r["sites"]), r["sites"]
want = {"barrier": "omp_barrier"}.get(mode)  # the others: whichever wait other load made larger
if want and r["dominant"] in ("spinning", "yielding"):
    top = r["sites"][0]
    assert top["primitive"] == want and top["where"].startswith("imbalance.c:"), r["sites"]
PY
}
split() { # prints barrier_spin / (barrier + barrier_spin) of $TMP/out, and 1 when the threads
	# waited little for a CPU (scheduling + foreign_load < 0.1 N): a spinning thread that other
	# load keeps off the CPU, or that yields it (libomp does), does not spin
	json_get "(lambda r: '%.3f %d' % (r['by_primitive']['barrier_spin'] / max(r['by_primitive']['barrier'] + r['by_primitive']['barrier_spin'], 1e-9),
	                                  r['components']['scheduling'] + r['components']['foreign_load'] < 0.1 * r['threads']))(d['results']['runs'][0])"
}
for cc in gcc clang; do
	prereq OPENMP_$(echo $cc | tr a-z A-Z) || { echo "skip $cc: $PREREQ_WHY"; continue; }
	$cc -O2 -g -fopenmp -o "$TMP/imb-$cc" "$SRC" || fail "$cc -fopenmp does not build imbalance.c"
done
for cc in gcc clang; do
	if [ $cc = gcc ]; then spin=GOMP_SPINCOUNT; else spin=KMP_BLOCKTIME; fi
	test_expect_success OPENMP_$(echo $cc | tr a-z A-Z) "$cc: the same results under the library (tasks' copies)" '
		for mode in barrier critical taskwait; do
			OMP_NUM_THREADS=2 "$TMP/imb-$cc" 20 $mode >"$TMP/plain" || fail "$cc $mode does not run"
			mkdir -p "$TMP/rec"
			OMP_NUM_THREADS=2 ARCHSCOPE_STACK_DIR=$TMP/rec LD_PRELOAD=$(dirname "$ARCHSCOPE")/libarchscope-preload.so \
				"$TMP/imb-$cc" 20 $mode >"$TMP/pre" || fail "$cc $mode fails under the library"
			cmp -s "$TMP/plain" "$TMP/pre" || fail "$cc $mode: other results under the library"
		done
	'
	test_expect_success OPENMP_$(echo $cc | tr a-z A-Z) "$cc: the barrier, critical sections and taskwait, each counted once as the construct" '
		for mode in barrier critical taskwait; do
			run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- "$TMP/imb-$cc" 200 $mode
			check $cc $mode
		done
	'
	# one thread: the runtime runs the deferred tasks in the taskwait, and that is work
	test_expect_success OPENMP_$(echo $cc | tr a-z A-Z) "$cc: at 1 thread a task's run is not its taskwait's wait" '
		run 0 "$ARCHSCOPE" stack -q -t 1 -r 1 --json -- "$TMP/imb-$cc" 100 taskwait
		json_get "{k: round(v, 3) for k, v in d[\"results\"][\"runs\"][0][\"by_primitive\"].items() if v > 0.0005}" |
			sed "s/^/$cc taskwait at 1 thread: /"
		json_get "(lambda b: b[\"taskwait\"] + b[\"taskwait_spin\"] < 0.2)(d[\"results\"][\"runs\"][0][\"by_primitive\"])" | grep -qx True ||
			fail "$cc: a task'"'"'s run counted as its taskwait'"'"'s wait"
	'
	# the spin-then-sleep phases: all spin, or all sleep. At the shortest sampling period: the
	# runs are ~0.4 s, and at the longest (12.9 ms, where a sample is dear) one stray sample in the
	# runtime's code during a sleeping wait is 0.03 of 2 by itself (CI read 0.076 with
	# KMP_BLOCKTIME=0 once, where 3.24 ms had read 0.000 in every run before)
	test_expect_success OPENMP_$(echo $cc | tr a-z A-Z) "$cc: the barrier's spin phase follows $spin" '
		env $spin=infinite "$ARCHSCOPE" stack -q -t 2 -r 1 --json --sample-period 3.236068 -- "$TMP/imb-$cc" 150 barrier >"$TMP/out" 2>"$TMP/err" ||
			fail "$spin=infinite: stack failed"
		check $cc barrier
		set -- $(split)
		hi=$1 quiet=$2
		env $spin=0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json --sample-period 3.236068 -- "$TMP/imb-$cc" 150 barrier >"$TMP/out" 2>"$TMP/err" ||
			fail "$spin=0: stack failed"
		check $cc barrier
		set -- $(split)
		lo=$1
		echo "$cc: spin share of the barrier $hi with $spin=infinite, $lo with $spin=0 (quiet: $quiet)"
		# spinning needs the two threads to run at once: checked only on a quiet machine (QUIET: the
		# load average under 3/4 of the CPUs) where the runs waited little for a CPU
		prereq QUIET || quiet=0
		"$PY" -c "import sys; sys.exit(0 if $lo < 0.05 and (not $quiet or ($hi > 0.05 and $hi > $lo)) else 1)" ||
			fail "$cc: the spin phase does not follow $spin ($hi with infinite, $lo with 0)"
	'
done
test_done
