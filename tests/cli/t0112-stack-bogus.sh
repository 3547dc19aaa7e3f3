# Runs that cannot be right are repeated, not reported (issue 36 item 6): a run at N threads that
# ends in less than T1 / (2 N) (more than twice a perfect speedup) or prints nothing on stdout where
# the 1-thread runs printed something is rejected and run again; the stack is of a run that did
# its work, and "rejected" says how many runs were thrown away and why. When every try at an N is
# rejected, stack says so and exits 1.
. "$(dirname "$0")/lib.sh"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
EX=$(dirname "$ARCHSCOPE")
[ -x "$EX/stack-parallel" ] || skip "needs the stack examples beside $ARCHSCOPE"
# the first run at 2 threads returns at once, silently (a crash nobody reported, a wrong input)
test_expect_success 'a bogus run (silent, too fast) is rejected and run again; the stack is of a run that did its work' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- sh -c \
		"if [ \"\$0\" -gt 1 ] && [ ! -e $TMP/once ]; then : >$TMP/once; exit 0; fi; exec $EX/stack-parallel \"\$0\" 1500" "{T}"
	[ -e "$TMP/once" ] || fail "the bogus run did not happen"
	"$PY" - "$TMP/out" <<-\PY || fail "the bogus run was not rejected (JSON in $TMP/out)"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]["runs"][0]
	print("rejected:", r.get("rejected"), "S %.2f" % r["speedup_actual"], "wall %.3f" % r["wall_s"], r["notes"])
	assert r["rejected"]["runs"] == 1, r.get("rejected")
	# silence is judged the same under any load; "under T1 / (2 N)" only where the start of the bogus run
	# (a shell under load 14 in CI) stays under a quarter of the load-corrected 1-thread time
	assert "printed nothing" in r["rejected"]["why"], r["rejected"]
	assert r["speedup_actual"] < 2 * r["threads"], r["speedup_actual"]   # the run kept did its work
	assert abs(sum(r["components"].values()) - r["threads"]) < 1e-6
	PY
'
# every run at 2 threads returns at once: no stack for N = 2 can be right
test_expect_success 'every run at an N rejected: stack says so and exits 1' '
	run 1 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- sh -c \
		"if [ \"\$0\" -gt 1 ]; then exit 0; fi; exec $EX/stack-parallel \"\$0\" 1500" "{T}"
	contains "$TMP/err" "every run of a thread count was rejected"
	json_get "d[\"results\"][\"runs\"][0][\"rejected\"][\"runs\"] == 3 and any(\"every run at this N was rejected\" in n for n in d[\"results\"][\"runs\"][0][\"notes\"])" |
		grep -qx True || fail "rejections not named (JSON in $TMP/out): $(json_get "d[\"results\"][\"runs\"][0].get(\"rejected\"), d[\"results\"][\"runs\"][0][\"notes\"]")"
'
test_done
