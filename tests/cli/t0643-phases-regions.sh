# phases --regions: the regions of examples/regions/known beside the phases (the same described
# rows as stat --regions), and, when Ctrl-C ends the program, what it marked until then.
. "$(dirname "$0")/lib.sh"
KNOWN="$(dirname "$ARCHSCOPE")/examples/regions-known"
[ -x "$KNOWN" ] || fail "no $KNOWN (built by CMake from examples/regions/)"
test_expect_success 'the known regions: exact calls and threads, described as phases results' '
	run 0 "$ARCHSCOPE" phases -q --regions -o "$TMP/p.json" -- "$KNOWN" 2
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/p.json" phases
	python3 - "$TMP/p.json" <<-\PY || fail "phases regions"
	import json, sys
	d = json.load(open(sys.argv[1]))["results"]
	calls = {r["name"]: (r["calls"], r["threads"], r["runs"]) for r in d["regions"]}
	assert calls == {"outer": (2, 2, 1), "short": (20, 2, 1), "long": (10, 2, 1), "sleep": (8, 2, 1)}, calls
	assert d["region_marks"]["records"] == 1 and d["phases"], d["region_marks"]
	PY
	run 0 "$ARCHSCOPE" phases --regions -- "$KNOWN" 1
	contains "$TMP/err" "^regions (per run"
'
test_expect_success 'Ctrl-C: exit 130, the region the program was in kept as unfinished, its record partial' '
	"$ARCHSCOPE" phases -q --regions --json -- "$KNOWN" hold >"$TMP/ready" 2>"$TMP/err" &
	pid=$!
	for i in $(seq 1 600); do grep -q ready "$TMP/ready" && break; sleep 0.05; done
	grep -q ready "$TMP/ready" || { kill -KILL $pid; fail "the program never got ready"; }
	sleep 1 # samples for the fit
	kill -INT $pid
	wait $pid
	rc=$?
	[ "$rc" -eq 130 ] || { cat "$TMP/err" >&2; fail "phases exited $rc, not 130"; }
	sed -n "/^{/,\$p" "$TMP/err" >"$TMP/j.json"
	python3 - "$TMP/j.json" <<-\PY || fail "interrupted regions"
	import json, sys
	d = json.load(open(sys.argv[1]))["results"]
	reg = {r["name"]: r for r in d["regions"]}
	assert d["interrupted"] is True and d["region_marks"]["partial"] == 1, d["region_marks"]
	assert reg["done"]["calls"] == 1 and reg["done"]["unfinished"] == 0, reg
	assert reg["hold"]["calls"] == 0 and reg["hold"]["unfinished"] == 1, reg
	PY
'
test_done
