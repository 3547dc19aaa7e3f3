# report's run of its own: topology, probe --quick and bench --threads-scaling (one thread), the page
# from them, the results kept with --save and read back with --from; Ctrl-C (SIGINT to the process
# group, as a terminal sends it) ends the run with 130, writes no page and leaves no temporary files.
. "$(dirname "$0")/lib.sh"
export TMPDIR=$TMP
run 0 "$ARCHSCOPE" report -q -o "$TMP/r.html" -t 1 --save "$TMP/run" --json
cp "$TMP/out" "$TMP/report.json"
test_expect_success 'the run of its own: topology, probe --quick and bench, its figures, the results saved' '
	python3 - "$TMP/report.json" "$TMP/r.html" "$TMP/run" <<-\PY || fail "the run of its own"
	import json, os, sys
	s = json.load(open(sys.argv[1]))["results"]
	page = open(sys.argv[2], encoding="utf-8").read()
	assert s["figures"] >= 12 and s["answers"] >= 15, s
	assert len(s["inputs"]) == 3 and all("(this run)" in i for i in s["inputs"]), s["inputs"]
	for f, cmd in (("topology", "topology"), ("probe", "probe"), ("bench", "bench")):
	    d = json.load(open(os.path.join(sys.argv[3], f + ".json")))
	    assert d["command"] == cmd and d["results"], f
	    assert "pmu" in d["machine"] and "date" in d["machine"], d["machine"]
	bench = json.load(open(os.path.join(sys.argv[3], "bench.json")))["results"]
	assert [r["threads"] for r in bench["scaling"]] == [1], bench["scaling"]
	for fig in ("fig-topology", "fig-latency", "fig-bandwidth", "fig-roofline"):
	    assert f"id=\"{fig}\"" in page, fig
	assert "this run: archscope topology, probe --quick and bench --threads-scaling -t 1" in page
	PY
	! ls "$TMP" | grep -q "^archscope-report\." || fail "a temporary directory was left behind"
'
# the saved results make the same figures
test_expect_success 'the saved results read back with --from make the same figures' '
	run 0 "$ARCHSCOPE" report -o "$TMP/again.html" --json --from "$TMP/run/topology.json" "$TMP/run/probe.json" "$TMP/run/bench.json"
	[ "$(grep -o "<figure " "$TMP/again.html" | wc -l)" -eq "$(grep -o "<figure " "$TMP/r.html" | wc -l)" ] ||
		fail "--from the saved results gives other figures"
'

# interrupted: 130, no page, no temporary directory
test_expect_success 'Ctrl-C: exit 130, no page, no temporary directory' '
	setsid "$ARCHSCOPE" report -q -o "$TMP/cut.html" -t 1 >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	sleep 2
	kill -INT -- -"$pid" 2>/dev/null || kill -INT "$pid"
	wait "$pid"
	rc=$?
	[ "$rc" -eq 130 ] || { cat "$TMP/err" >&2; fail "interrupted report exited $rc, expected 130"; }
	[ ! -e "$TMP/cut.html" ] || fail "an interrupted run wrote its page"
	! ls "$TMP" | grep -q "^archscope-report\." || fail "an interrupted run left its temporary directory"
'
test_done
