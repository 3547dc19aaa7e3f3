# phases: a program shorter than three sampling intervals gets a clear message; usage errors exit 2;
# a program that is not there, 2 (before anything is measured); a flat program ends in a flat segment (the unit tests check that
# a flat series gets exactly one).
. "$(dirname "$0")/lib.sh"
test_expect_success 'a program shorter than three sampling intervals' '
	run 1 "$ARCHSCOPE" phases --interval 1000 -- true
	contains "$TMP/err" "less than three sampling intervals of 1000 ms"
	contains "$TMP/err" "smaller --interval"
'
test_expect_success '--segments 9' '
	run 2 "$ARCHSCOPE" phases --segments 9 -- true
	contains "$TMP/err" "segments must be 1 to 6 or auto"
'
test_expect_success 'no program' '
	run 2 "$ARCHSCOPE" phases
	contains "$TMP/err" "give the program to run"
'
test_expect_success '--interval 0' '
	run 2 "$ARCHSCOPE" phases --interval 0 -- true
	contains "$TMP/err" "interval"
'
test_expect_success 'an unknown event' '
	run 2 "$ARCHSCOPE" phases -e task-clock,nosuchevent -- true
	# where libpfm4 knows this CPU, the -e list is refused as stat refuses it
	grep -q "unknown event '\''nosuchevent'\''\|event '\''nosuchevent'\'' is not known" "$TMP/err" ||
		fail "nosuchevent not named: $(cat "$TMP/err")"
'
test_expect_success 'a program that is not there' '
	run 2 "$ARCHSCOPE" phases -- /nonexistent/program
	contains "$TMP/err" "/nonexistent/program"
'
test_expect_success '4 samples cannot hold 3 segments' '
	run 1 "$ARCHSCOPE" phases --segments 3 --interval 100 -- sleep 0.45
	contains "$TMP/err" "3 segments need at least 7 samples"
'
# sleep's footprint does not change after the loader is done (a few ms, longer under load):
# auto may give the start-up its own segments, but the last one is flat and holds most of the run
flat_json() {
	python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
last = r["phases"][-1]
assert len(r["phases"]) == r["segments"] == len(r["breakpoints_s"]) + 1, r
assert abs(last["slope_bytes_per_s"]) < 1e6 and last["end_s"] - last["start_s"] > 0.4 * r["duration_s"], r
assert r["bic_by_segments"][0] is not None
PY
}
test_expect_success 'a flat program ends in a flat segment' '
	run 0 "$ARCHSCOPE" phases --json -o "$TMP/j.json" --segments auto -e task-clock -- sleep 0.8
	flat_json "$TMP/j.json" || fail "flat program"
'
test_expect_success 'a program'\''s failure is reported, not hidden' '
	run 0 "$ARCHSCOPE" phases -e task-clock -- sh -c "sleep 0.2; exit 3"
	contains "$TMP/err" "exit status  *3"
	contains "$TMP/err" "exited with status 3"
'
test_done
