# Regions and signals: the marker library writes what it has, whole and marked partial, when
# SIGTERM ends the program; stat --regions interrupted exits 130, leaves out the cut run and
# leaves no record directory behind.
. "$(dirname "$0")/lib.sh"
KNOWN="$(dirname "$ARCHSCOPE")/examples/regions-known"
LIB="$(dirname "$ARCHSCOPE")/libarchscope-marker.so"
[ -x "$KNOWN" ] && [ -f "$LIB" ] || fail "no $KNOWN or $LIB (built by CMake)"
test_expect_success 'SIGTERM in a region: a whole record, marked partial, the open region flagged, no temporary file' '
	mkdir "$TMP/rec"
	ARCHSCOPE_MARKER_OUT="$TMP/rec" LD_PRELOAD="$LIB" "$KNOWN" hold >"$TMP/ready" &
	pid=$!
	for i in $(seq 1 600); do grep -q ready "$TMP/ready" && break; sleep 0.05; done
	grep -q ready "$TMP/ready" || { kill -KILL $pid; fail "the program never got ready"; }
	kill -TERM $pid
	wait $pid
	rc=$?
	[ "$rc" -eq 143 ] || fail "the program exited $rc, not by SIGTERM (143)"
	ls -A "$TMP/rec" >"$TMP/list"
	[ "$(cat "$TMP/list")" = "regions.$pid" ] || fail "records: $(cat "$TMP/list")"
	f="$TMP/rec/regions.$pid"
	contains "$f" "^status signal 15$"
	[ "$(tail -n 1 "$f")" = end ] || fail "record not whole"
	grep -E "^region done 1 [0-9]+ 0 " "$f" >/dev/null || { cat "$f" >&2; fail "done not counted"; }
	grep -E "^region hold 0 0 1 " "$f" >/dev/null || { cat "$f" >&2; fail "hold not flagged running"; }
'
test_expect_success 'stat --regions interrupted: exit 130, no record directory left, the cut run not counted' '
	mkdir "$TMP/tmpdir"
	TMPDIR="$TMP/tmpdir" "$ARCHSCOPE" stat -q -r 50 --regions --json -- "$KNOWN" 1 >/dev/null 2>"$TMP/err" &
	pid=$!
	sleep 3
	kill -INT $pid
	wait $pid
	rc=$?
	[ "$rc" -eq 130 ] || fail "stat exited $rc, not 130"
	[ -z "$(ls -A "$TMP/tmpdir")" ] || fail "left in TMPDIR: $(ls -A "$TMP/tmpdir")"
	sed -n "/^{/,\$p" "$TMP/err" >"$TMP/j.json"
	python3 - "$TMP/j.json" <<-\PY || fail "interrupted regions"
	import json, sys
	d = json.load(open(sys.argv[1]))["results"]
	assert d["interrupted"] is True
	done = d["runs_done"]
	for r in d["regions"]:
	    assert r["runs"] <= done and r["calls"] == {"outer": 1, "short": 10, "long": 5, "sleep": 4}[r["name"]], r
	PY
'
test_done
