# stat records the conditions of its runs (issue 35: load before and after, the measured clock, the
# governor and the OS's MHz, CPU, kernel, version, time, affinity); compare warns when two files differ
# in them, naming the field and both values; compare -r R -- A -- B runs the two in turn (A B A B ...)
# so that a drift of the machine cancels: two commands of different size are told apart, and one
# command whose cost drifts upward with every run is not flagged interleaved, where two batches are.
. "$(dirname "$0")/lib.sh"
command -v perl >/dev/null || fail "no perl (Debian's perl-base is essential)"
run 0 "$ARCHSCOPE" stat -q -r 2 -e page-faults -o "$TMP/a.json" -- true
test_expect_success 'stat records load, clock, times, kernel, version and affinity' '
	python3 - "$TMP/a.json" <<-\PY || fail "conditions"
	import json, re, sys
	c = json.load(open(sys.argv[1]))["results"]["conditions"]
	for k in ("loadavg_before", "loadavg_after"):
	    assert len(c[k]) == 3 and all(v >= 0 for v in c[k]), (k, c[k])
	assert c["clock_ghz_before"] > 0.1 and c["clock_ghz_after"] > 0.1, c
	assert "measured" in c["clock_method"]
	iso = r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"
	assert re.match(iso, c["started"]) and re.match(iso, c["ended"]) and c["started"] <= c["ended"], c
	assert c["kernel"] and c["archscope"] and c["hostname"] and c["cpus_allowed"] and c["cpus_online"] >= 1, c
	assert "cpu_model" in c and "governor" in c and "cpu_mhz_os" in c
	PY
'
# the same file against itself: nothing to warn of
test_expect_success 'a file compared with itself: no conditions differ' '
	run 0 "$ARCHSCOPE" compare "$TMP/a.json" "$TMP/a.json"
	! grep -q "conditions differ" "$TMP/err" || fail "a file compared with itself: conditions differ?"
'
# another machine's conditions: each difference named, with both values
test_expect_success 'another machine'\''s conditions: each difference named with both values, text and JSON' '
	python3 - "$TMP/a.json" "$TMP/b.json" <<-\PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	c = d["results"]["conditions"]
	c["cpu_model"] = "Other CPU 9000"
	c["governor"] = "powersave" if c["governor"] != "powersave" else "performance"
	c["loadavg_before"][0] += 5
	c["clock_ghz_before"] *= 1.5
	json.dump(d, open(sys.argv[2], "w"))
	PY
	run 0 "$ARCHSCOPE" compare -q "$TMP/a.json" "$TMP/b.json"
	contains "$TMP/err" "warning: conditions differ: cpu_model is '\''.*'\'' in A and '\''Other CPU 9000'\'' in B"
	contains "$TMP/err" "conditions differ: governor is"
	contains "$TMP/err" "conditions differ: loadavg_before\[0\] is .* in A and .* in B"
	contains "$TMP/err" "conditions differ: clock_ghz_before is .* GHz in A and .* GHz in B"
	contains "$TMP/err" "4 conditions differ between A and B"
	run 0 "$ARCHSCOPE" compare -q --json "$TMP/a.json" "$TMP/b.json"
	[ "$(json_get "d[\"results\"][\"conditions_differ\"]")" = 4 ] || fail "conditions_differ in JSON"
'

# two commands of different size, interleaved: told apart, B/A the right way round
small='$x = "a" x 1000000'
big='$x = "a" x 16000000'
test_expect_success 'compare -r: two commands of different size, interleaved, told apart' '
	run 0 "$ARCHSCOPE" compare -q -r 4 -e page-faults -o "$TMP/ab.json" -- perl -e "$small" -- perl -e "$big"
	python3 - "$TMP/ab.json" <<-\PY || fail "compare -r: a 16 MB program not flagged against a 1 MB one"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]
	assert r["mode"] == "interleaved" and r["runs_a"] == 4 and r["runs_b"] == 4, r
	ev = {e["name"]: e for e in r["events"]}
	pf = ev["page-faults"]
	assert pf["significant"] and pf["ratio"] > 3 and pf["n_a"] == 4 and pf["n_b"] == 4, pf
	PY
	# the report went to -o; stderr has the text
	[ ! -s "$TMP/out" ] || fail "compare -r wrote on stdout, which is the programs'\''"
'

# drift: every run of this command costs more than the one before (its footprint grows by 4 MB a run)
drift="n=\$(cat '$TMP/n'); echo \$((n + 1)) >'$TMP/n'; exec perl -e '\$x = \"a\" x ((1 + \$ARGV[0]) * 4000000)' \$n"
test_expect_success 'interleaved runs of one drifting command: not flagged' '
	echo 0 >"$TMP/n"
	run 0 "$ARCHSCOPE" compare -q -r 5 -e page-faults --json -o "$TMP/inter.json" -- sh -c "$drift" -- sh -c "$drift"
	python3 - "$TMP/inter.json" <<-\PY || fail "interleaved runs of one drifting command flagged"
	import json, sys
	ev = {e["name"]: e for e in json.load(open(sys.argv[1]))["results"]["events"]}
	assert not ev["page-faults"]["significant"], ev["page-faults"]
	PY
'
# the same command in two batches: the drift reads as a change
test_expect_success 'the same drifting command in two batches: the drift reads as a change' '
	echo 0 >"$TMP/n"
	run 0 "$ARCHSCOPE" stat -q -r 5 -e page-faults -o "$TMP/batch-a.json" -- sh -c "$drift"
	run 0 "$ARCHSCOPE" stat -q -r 5 -e page-faults -o "$TMP/batch-b.json" -- sh -c "$drift"
	run 0 "$ARCHSCOPE" compare -q --json -e page-faults "$TMP/batch-a.json" "$TMP/batch-b.json"
	json_get "[e[\"significant\"] for e in d[\"results\"][\"events\"]]" | grep -qx "\[True\]" ||
		fail "two batches of a drifting command not told apart: the drift test has no power"
'
test_done
