# model II on this machine: ECM with llvm-mca, RooflineASM, Benchmark and Blocking. Asserts only
# what holds on any machine under load: the pieces exist, have units and are positive, the
# predictions are consistent with each other (the ECM prediction is the cumulative sum's last
# entry), and missing tools are clear errors while the data-side models still print.
. "$(dirname "$0")/lib.sh"
SNB="$ROOT/tests/fixtures/machines/kerncraft-snb-e5-2680.yml"
HERE="$ROOT/machines/kvm-xeon-6-207.yaml"
require GCC LIBCLANG
# Blocking needs no compiler: the paper's Jacobi on Sandy Bridge, L1 blocked to N <= 1024
test_expect_success 'Blocking needs no compiler: the paper'\''s Jacobi blocked in L1 to N <= 1024' '
	run 0 "$ARCHSCOPE" model "$ROOT/kernels/jacobi-2d-5pt.c" -m "$SNB" -D N 2000 -D M 1000 -p Blocking --json
	python3 - "$TMP/out" <<-\PY || fail "blocking"
	import json, sys
	b = json.load(open(sys.argv[1]))["results"]["blocking"]
	l1 = [x for x in b if x["level"] == "L1"][0]
	assert l1["constant"] == "N" and l1["block_at_most"] == 1024 and l1["loops"] == "'\''i'\''", l1
	assert l1["misses_now"] == 4 and l1["misses_blocked"] == 2, l1
	assert l1["cy_per_cl_blocked"] < l1["cy_per_cl_now"], l1
	PY
'
# missing llvm-mca: a clear error, the data side still printed (exit 0)
test_expect_success 'without llvm-mca: a clear error, the data side still printed' '
	mkdir -p "$TMP/bin"
	for t in gcc cc as ld python3; do p=$(command -v $t) && ln -sf "$p" "$TMP/bin/$t"; done
	PATH="$TMP/bin" run 0 "$ARCHSCOPE" model "$ROOT/kernels/stream-triad.c" -m "$HERE" -D N 2000 -p ECMData -p ECM
	contains "$TMP/out" "llvm-mca is not installed"
	contains "$TMP/out" "ECMData"
'
# a compiler that is not there
test_expect_success LLVM_MCA 'a compiler that is not there is named' '
	run 0 "$ARCHSCOPE" model "$ROOT/kernels/stream-triad.c" -m "$HERE" -D N 2000 -p ECM --compiler no-such-cc
	contains "$TMP/out" "no-such-cc"
'
# ECM, RooflineASM and Benchmark on this machine's file
test_expect_success LLVM_MCA 'ECM, RooflineASM and Benchmark in JSON: consistent and positive' '
	run 0 "$ARCHSCOPE" model "$ROOT/kernels/stream-triad.c" -m "$HERE" -D N 4000 -p ECM -p RooflineASM -p Benchmark \
		--bench-seconds 0.05 --bench-reps 5 --json
	python3 - "$TMP/out" <<-\PY || fail "ECM / Benchmark"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]
	ic, ecm, b = r["incore"], r["ecm"], r["benchmark"]
	assert ic["iterations_per_pass"] > 0 and ic["T_OL"] > 0 and ic["T_nOL"] > 0, ic
	assert any(p["non_overlapping"] for p in ic["ports"]), ic["ports"]
	assert ecm["T_OL"] == ic["T_OL"] and ecm["unit"] == "cy/CL", ecm
	assert abs(ecm["prediction_cy_per_cl"] - ecm["cumulative_cy_per_cl"][-1]) < 1e-9, ecm
	assert ecm["prediction_cy_per_cl"] >= max(ecm["T_OL"], ecm["T_nOL"]) - 1e-9, ecm
	assert r["roofline_asm"]["cy_per_cl"] > 0
	assert b["cy_per_cl"] > 0 and b["mlups"] > 0 and b["clock_ghz"] > 0, b
	assert b["repetitions"] == 5, b
	c = b["counters"]
	if c["available"]:   # a machine with a PMU: cycles from the counter, the time-based figure beside it
	    assert b["cycles"].startswith("core cycles from the") and c["events"]["cycles"]["per_cl"] > 0, b
	    assert b["time_cy_per_cl"] > 0, b
	else:                # no PMU (virtual machines): time x measured clock, and the reason is given
	    assert b["cycles"] == "core cycles of the measured clock" and c["reason"], b
	assert set(b["relative_error"]) >= {"ECM", "Roofline", "RooflineASM"}, b
	PY
'
test_expect_success LLVM_MCA 'ECM and Benchmark text' '
	run 0 "$ARCHSCOPE" model "$ROOT/kernels/stream-triad.c" -m "$HERE" -D N 4000 -p ECM -p Benchmark --bench-seconds 0.05 --bench-reps 5
	contains "$TMP/out" "T_OL || T_nOL"
	contains "$TMP/out" "port pressure in cycles per pass"
	contains "$TMP/out" "measured  *[0-9.]* cy/CL"
	contains "$TMP/out" "cycles  *core cycles "
	contains "$TMP/out" "calls per repetition  *[0-9]"
	contains "$TMP/out" "repetitions  *5 (the fastest counts)"
	contains "$TMP/out" "hardware counters  \|counters per CL"
'
# The counter path on any machine: a software event stands in for cycles (it counts ns). The
# repetition kept has the fewest ns, so it cannot exceed the fastest repetition's time by more
# than the stop/continue edges.
test_expect_success LLVM_MCA 'the counter path with a software event standing in for cycles' '
	ARCHSCOPE_CYCLES_EVENT=perf::PERF_COUNT_SW_TASK_CLOCK run 0 "$ARCHSCOPE" model "$ROOT/kernels/stream-triad.c" \
		-m "$HERE" -D N 4000 -p Benchmark --bench-seconds 0.05 --bench-reps 5 --json
	python3 - "$TMP/out" <<-\PY || fail "benchmark counters"
	import json, sys
	b = json.load(open(sys.argv[1]))["results"]["benchmark"]
	ev = b["counters"]["events"]["perf::PERF_COUNT_SW_TASK_CLOCK"]
	assert b["counters"]["available"] and ev["per_call"] > 0, b
	assert ev["per_call"] <= 1.1 * b["seconds_per_call"] * 1e9, b
	assert abs(ev["per_cl"] - b["cy_per_cl"]) < 1e-9 * b["cy_per_cl"], b
	PY
'
test_expect_success LLVM_MCA '--no-counters' '
	run 0 "$ARCHSCOPE" model "$ROOT/kernels/stream-triad.c" -m "$HERE" -D N 4000 -p Benchmark --bench-seconds 0.02 --bench-reps 5 --no-counters
	contains "$TMP/out" "hardware counters  *not read (--no-counters)"
'
test_expect_success LLVM_MCA 'an unknown event is named' '
	run 2 "$ARCHSCOPE" model "$ROOT/kernels/stream-triad.c" -m "$HERE" -D N 4000 -p Benchmark --events NO_SUCH_EVENT
	contains "$TMP/err" "NO_SUCH_EVENT"
'
test_expect_success LLVM_MCA '--bench-reps 0' '
	run 2 "$ARCHSCOPE" model "$ROOT/kernels/stream-triad.c" -m "$HERE" -D N 4000 -p Benchmark --bench-reps 0
	contains "$TMP/err" "bench-reps must be 1 to 1000"
'
# a kernel whose arrays do not fit in memory is refused before anything is compiled
test_expect_success LLVM_MCA 'arrays that do not fit in memory are refused' '
	run 2 "$ARCHSCOPE" model "$ROOT/kernels/stream-triad.c" -m "$HERE" -D N 4000000000000000 -p Benchmark
'
test_done
