# stack: help, usage errors, the JSON names of item 11 with components summing to N, and programs
# that fail, crash, start no threads, run under 10 ms or ignore {T} are named as such.
. "$(dirname "$0")/lib.sh"
# the system python when there is one: a version manager's shim can take seconds to start
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
EX=$(dirname "$ARCHSCOPE")
[ -x "$EX/stack-parallel" ] || skip "needs the stack examples beside $ARCHSCOPE"
test_expect_success 'stack --help names {T}' '
	run 0 "$ARCHSCOPE" stack --help
	contains "$TMP/out" "{T}"
'
test_expect_success 'no program to run' '
	run 2 "$ARCHSCOPE" stack
	contains "$TMP/err" "no program to run"
'
test_expect_success 'a thread count of 0' '
	run 2 "$ARCHSCOPE" stack -t 0 -- true
	contains "$TMP/err" "thread count"
'
test_expect_success 'a program that does not exist is named' '
	run 2 "$ARCHSCOPE" stack -- /nonexistent/program
	contains "$TMP/err" "/nonexistent/program"
'
test_expect_success 'a sampling period under 0.1 ms, negative or with a unit' '
	run 2 "$ARCHSCOPE" stack --sample-period 0.01 -- true
	contains "$TMP/err" "at least 0.1 ms"
	run 2 "$ARCHSCOPE" stack --sample-period -3 -- true
	run 2 "$ARCHSCOPE" stack --sample-period 3ms -- true
'
test_expect_success 'a preload library that does not exist' '
	ARCHSCOPE_PRELOAD=/nonexistent.so run 2 "$ARCHSCOPE" stack -- true
	contains "$TMP/err" "ARCHSCOPE_PRELOAD"
'

# item 11: results.runs[] with its names; one run per N asked (the 1-thread run for S is extra)
test_expect_success '--json: the names of item 11, components summing to N, the error against base' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 2 --json -- "$EX/stack-parallel" "{T}" 100
	"$PY" - "$TMP/out" <<-\PY || fail "JSON names or sums"
	import json, sys
	d = json.load(open(sys.argv[1]))
	assert d["command"] == "stack"
	runs = d["results"]["runs"]
	assert [r["threads"] for r in runs] == [2], runs
	r = runs[0]
	for k in ("threads", "wall_s", "speedup_actual", "speedup_estimated", "error", "components", "by_primitive", "dominant", "class"):
	    assert k in r, k
	names = {"base", "positive_interference", "spinning", "yielding", "imbalance", "scheduling", "foreign_load", "work_inflation"}
	t2 = {"llc", "memory", "coherency", "parallelization_overhead"}  # tier 2, where counters open
	assert set(r["components"]) in (names, names | t2), r["components"]
	assert abs(sum(r["components"].values()) - 2) < 1e-6
	assert set(r["spread"]) == names and all(s["min"] <= r["components"][k] + 1e-12 <= s["max"] + 2e-12 for k, s in r["spread"].items())
	assert r["wall_s"] > 0 and r["speedup_actual"] > 0 and r["speedup_estimated"] >= 0
	# the error is against base: S, or S without the other load where the 1-thread runs waited for it
	assert abs(r["error"] - abs(r["speedup_estimated"] - r["components"]["base"]) / 2) < 1e-9
	assert "error_raw" not in r or abs(r["error_raw"] - abs(r["speedup_estimated"] - r["speedup_actual"]) / 2) < 1e-9
	assert ("speedup_unloaded" in r) == ("t1_unloaded_s" in d["results"])
	assert r["class"] in ("good", "moderate", "poor")
	assert r["dominant"] == "none" or r["dominant"] in names - {"base", "positive_interference", "foreign_load"}
	others = [v for k, v in r["components"].items() if k not in ("base", "positive_interference", "foreign_load")]
	# none: base fills the bar, or the largest does not stand out beyond the runs'\'' spread, or
	# work_inflation is not confirmed by the program'\''s CPU time (issue 47 item 5)
	assert (r["dominant"] == "none") == (r["components"]["base"] + r["components"]["foreign_load"] >= 1.8 or max(others) <= 0
	                                     or r["dominant_unclear"] or r["inflation_unconfirmed"])
	assert r["repetitions"] == 2 and r["threads_max"] in (2, 3)  # a worker may end before the next starts
	PY
'
# text: every number with its unit, the answer sentence; --plot: the stacked bars' data, one row
# per N, each row summing to N
test_expect_success 'text: every number with its unit, the answer; --plot: rows summing to N' '
	run 0 "$ARCHSCOPE" stack -q -t 1,2 -r 1 --plot "$TMP/plot" -- "$EX/stack-parallel" "{T}" 100
	contains "$TMP/out" "stack at 1 thread"
	contains "$TMP/out" "stack at 2 threads"
	contains "$TMP/out" "speedup actual (T1/TN) .* x"
	contains "$TMP/out" "answer .*at 2 threads the measured speedup is"
	awk '\''!/^#/ { s = 0; for (i = 2; i <= NF; i++) s += $i; if (s < $1 - 1e-3 || s > $1 + 1e-3) bad = 1; n++ } END { exit bad || n != 2 }'\'' \
		"$TMP/plot/stack.dat" || fail "stack.dat rows do not sum to N"
	if command -v gnuplot >/dev/null; then [ -s "$TMP/plot/stack.svg" ] || fail "no stack.svg"; fi
'

# item 12: a failing program is named with its status, a crash with its signal
test_expect_success 'a failing program is named with its status and its stderr' '
	run 1 "$ARCHSCOPE" stack -q -t 2 -r 1 -- sh -c "echo oops >&2; exit 3"
	contains "$TMP/err" "exited with status 3"
	contains "$TMP/err" "oops"
'
test_expect_success 'a crash is named with its signal' '
	run 1 "$ARCHSCOPE" stack -q -t 2 -r 1 -- sh -c '\''kill -SEGV $$'\''
	contains "$TMP/err" "crashed: killed by signal 11"
'
# a program with no threads that runs 1 ms
test_expect_success 'a program that starts no threads is named as such' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- true
	json_get "d[\"results\"][\"runs\"][0][\"notes\"]" >"$TMP/notes"
	contains "$TMP/notes" "started no threads"
'
# under 10 ms is named exactly when the span was (a loaded machine can stretch even `true`)
test_expect_success 'the 10 ms note is given exactly when the span was under 10 ms' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- true
	json_get "(\"short\" if d[\"results\"][\"runs\"][0][\"span_s\"] < 0.010 else \"long\") + \" \" + str(any(\"shorter than 10 ms\" in n for n in d[\"results\"][\"runs\"][0][\"notes\"]))" |
		grep -qx "short True\|long False" || fail "the 10 ms note disagrees with the span"
'
# a program that ignores {T}: the same threads at every N
test_expect_success 'a program that ignores {T} is named as such' '
	run 0 "$ARCHSCOPE" stack -q -t 1,2 -r 1 --json -- "$EX/stack-parallel" 2 100
	json_get "d[\"results\"][\"runs\"][1][\"notes\"]" >"$TMP/notes"
	contains "$TMP/notes" "ignores {T}"
'
test_done
