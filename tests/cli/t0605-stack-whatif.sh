# stack --whatif (issue 49 item 2): whatif's causal profile printed beside the speedup stack of the
# same program at the same thread count, each site with its critical-path share. On
# examples/whatif/two-threads.c (thread A's line is twice B's work, main joins both): the block is
# there and described, both lines are sites, each with its interval and a critical-path share in
# [0, 1], A's share above B's (shares come from the threads' CPU time, which other load does not
# change; the curves' values do, so they are not asserted here: t0601 does on a quiet machine).
. "$(dirname "$0")/lib.sh"
EX=$(dirname "$ARCHSCOPE")
[ -x "$EX/whatif-two-threads" ] || skip "needs the whatif examples beside $ARCHSCOPE"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3

test_expect_success 'options: a bad --whatif-speedups or too many runs is a usage error, before anything runs' '
	run 2 "$ARCHSCOPE" stack --whatif --whatif-speedups 0.5,0.2 -- "$EX/whatif-two-threads" &&
	contains "$TMP/err" "whatif-speedups" &&
	run 2 "$ARCHSCOPE" stack --whatif --whatif-sites 16 --whatif-rounds 16 -- "$EX/whatif-two-threads" &&
	contains "$TMP/err" "whatif-rounds" &&
	run 0 "$ARCHSCOPE" stack --help &&
	contains "$TMP/out" "--whatif-rounds"
'
test_expect_success 'the whatif block beside the stack: described, sites named, each with an interval and a critical-path share' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --whatif --json -- "$EX/whatif-two-threads" 0.5 &&
	cp "$TMP/out" "$TMP/s.json" &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/s.json" stack &&
	"$PY" - "$TMP/s.json" <<-\PY || fail "wrong whatif block (JSON in $TMP/s.json)"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]
	assert r["runs"], "no stack"
	w = r["whatif"]
	print({k: v for k, v in w.items() if k not in ("sites", "conditions")})
	for s in w["sites"]:
	    print(s["site"], s["critical_path_share"], s["program_speedup"], s["ci"], s["verdict"])
	assert w["threads"] == 2 and w["rounds"] == 2, w
	assert 1 <= w["critical_threads"] <= w["threads_seen"], w
	sites = {s["site"].split(" ")[-1]: s for s in w["sites"]}
	assert set(sites) == {"(crit_work)", "(side_work)"}, list(sites)
	for s in w["sites"]:
	    assert s["site"].startswith("two-threads.c:"), s["site"]
	    assert 0 <= s["critical_path_share"] <= 1, s
	    assert s["line_speedup"] == 1 and isinstance(s["program_speedup"], float), s
	    assert isinstance(s["ci"], float) and s["ci"] >= 0, s
	    assert [p["line_speedup"] for p in s["points"]] == [0, 0.5, 1], s["points"]
	assert sites["(crit_work)"]["critical_path_share"] > sites["(side_work)"]["critical_path_share"], sites
	PY
'
test_expect_success 'text: one line per site with the line speedup, the program speedup and its ±, and the critical-path share; --plot draws both' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --whatif --whatif-sites 1 --whatif-speedups 1 --plot "$TMP/plot" -- \
		"$EX/whatif-two-threads" 0.3 &&
	test -s "$TMP/plot/stack.dat" && test -s "$TMP/plot/whatif.dat" || fail "no stack.dat or whatif.dat" &&
	if command -v gnuplot >/dev/null; then
		[ -s "$TMP/plot/stack.svg" ] && [ -s "$TMP/plot/whatif.svg" ] || { cat "$TMP/err"; fail "no stack.svg or whatif.svg"; }
	fi &&
	contains "$TMP/out" "whatif at 2 threads" &&
	contains "$TMP/out" "^  line two-threads.c:[0-9]* ([a-z_]*): +100 % -> program [-+][0-9.]* % (±[0-9.]*), stack: it is on the critical path [0-9]* % of the time$"
'
test_expect_success OPENMP_GCC 'OpenMP: the work site is tried beside the stack, the barrier wait is waiting' '
	[ -x "$EX/whatif-openmp-imbalance-gcc" ] || fail "whatif-openmp-imbalance-gcc was not built" &&
	OMP_WAIT_POLICY=active run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --whatif --whatif-speedups 1 --json -- \
		"$EX/whatif-openmp-imbalance-gcc" 40 &&
	cp "$TMP/out" "$TMP/o.json" &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/o.json" stack &&
	"$PY" - "$TMP/o.json" <<-\PY || fail "wrong whatif block (JSON in $TMP/o.json)"
	import json, sys
	w = json.load(open(sys.argv[1]))["results"]["whatif"]
	print([(s["site"], s["critical_path_share"]) for s in w["sites"]], [x["site"] for x in w["waiting"]])
	assert any(s["site"].startswith("openmp-imbalance.c:") and s["site"].endswith("(work)") for s in w["sites"]), w["sites"]
	assert not any("libgomp" in s["site"] for s in w["sites"]), w["sites"]
	assert all("libgomp" in x["site"] or "sched_yield" in x["site"] for x in w["waiting"]), w["waiting"]
	assert all(0 <= s["critical_path_share"] <= 1 for s in w["sites"]), w["sites"]
	PY
'
test_done
