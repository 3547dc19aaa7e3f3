# whatif: help, usage errors (exit 2 before anything runs), a program with nothing to profile gets
# an answer that says so with its numbers, and the results are what their description says
# (machine/result-whatif.h), read back by `machine schema --check`.
. "$(dirname "$0")/lib.sh"

test_expect_success 'whatif --help names the options and Coz progress points' '
	run 0 "$ARCHSCOPE" whatif --help &&
	contains "$TMP/out" "--speedups" &&
	contains "$TMP/out" "COZ_PROGRESS"
'
test_expect_success 'no program to run' '
	run 2 "$ARCHSCOPE" whatif &&
	contains "$TMP/err" "no program to run"
'
test_expect_success 'line speedups that are not fractions, not increasing, or empty' '
	run 2 "$ARCHSCOPE" whatif --speedups 0.5,0.2 -- touch "$TMP/ran" &&
	contains "$TMP/err" "0.2" &&
	run 2 "$ARCHSCOPE" whatif --speedups fast -- touch "$TMP/ran" &&
	run 2 "$ARCHSCOPE" whatif --speedups 0.5, -- touch "$TMP/ran" &&
	run 2 "$ARCHSCOPE" whatif --speedups 0 -- touch "$TMP/ran" &&
	test ! -e "$TMP/ran" || fail "the program ran after a usage error"
'
test_expect_success 'a site kind that does not exist, too many rounds x sites' '
	run 2 "$ARCHSCOPE" whatif --by file -- true &&
	run 2 "$ARCHSCOPE" whatif --sites 16 --rounds 16 -- true &&
	contains "$TMP/err" "baseline runs"
'
test_expect_success 'a program that does not exist is named' '
	run 2 "$ARCHSCOPE" whatif -- /nonexistent/program &&
	contains "$TMP/err" "/nonexistent/program"
'
test_expect_success 'nothing to profile: no site, said with the samples and what to change' '
	run 0 "$ARCHSCOPE" whatif -q --json -- true &&
	cp "$TMP/out" "$TMP/none.json" &&
	test "$(json_get "len(d[\"results\"][\"sites\"])")" = 0 || fail "sites where none can be" &&
	json_get "d[\"results\"][\"notes\"][0]" >"$TMP/note" &&
	contains "$TMP/note" "no site" &&
	contains "$TMP/note" "samples" &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/none.json" whatif
'
test_expect_success 'a curve point that is not a number is refused, by its path' '
	cat >"$TMP/bad.py" <<-\EOF
	import json, sys
	d = json.load(open(sys.argv[1]))
	d["results"]["sites"] = [{"site": "a.c:1 (f)", "binary": "/bin/a", "samples": 20, "share": 0.5,
	    "verdict": "rising", "points": [{"line_speedup": 0.5, "program_speedup": "fast", "ci": 0.1,
	    "runs": 3, "noisy_runs": 0, "site_samples": 9}]}]
	json.dump(d, open(sys.argv[2], "w"))
	EOF
	run 0 "$ARCHSCOPE" whatif -q --json -- true &&
	python3 "$TMP/bad.py" "$TMP/out" "$TMP/bad.json" &&
	run 1 "$ARCHSCOPE" machine schema --check "$TMP/bad.json" whatif &&
	contains "$TMP/err" "sites\[0\].points\[0\].program_speedup"
'
test_expect_success 'the description lists the curve keys' '
	run 0 "$ARCHSCOPE" machine schema whatif &&
	contains "$TMP/out" "sites\[\].points\[\].program_speedup" &&
	contains "$TMP/out" "sites\[\].points\[\].ci"
'
test_expect_success 'a failing program: exit 1 with its status, the answer printed' '
	run 1 "$ARCHSCOPE" whatif -q -- sh -c "exit 3" &&
	contains "$TMP/err" "exit status 3"
'
test_done
