# Issue 52: stack's records, its preload library, and signals.
# - A record a killed process could not finish is skipped and counted, not the end of the run's
#   records (one empty record used to drop all of them: "speedup estimated 0.00 x", exit 0); a run
#   whose own process lost its record is rejected and repeated, and fails when every try lost it.
# - ARCHSCOPE_PRELOAD naming anything but a shared library is refused before anything runs (exit 2).
# - An interrupted `stat -o FILE` puts the JSON of the finished runs on stderr, and says "not
#   written" where there was no file.
# - tune, bench and probe follow the one interrupt policy (common/interrupt.h): SIGINT or SIGTERM
#   stops the measuring, what was measured is printed marked incomplete, exit 130, no temporary
#   directory left; tune stencil never prints zeros as a result.
. "$(dirname "$0")/lib.sh"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
root=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
EX=$(dirname "$ARCHSCOPE")
LIB=$EX/libarchscope-preload.so
zen5=$root/tests/fixtures/tune/zen5-published.yaml

# wait_grep FILE PATTERN [PID]: until FILE holds PATTERN (at most 300 s: a loaded machine is slow);
# then fails, killing PID
wait_grep() {
	local i=0
	until grep -q -- "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 3000 ] || { [ -z "${3:-}" ] || kill -KILL "$3"; fail "'$2' never came in $1"; }
		sleep 0.1
	done
}
# signal_after SIG PATTERN DELAY CMD...: starts CMD (stdout $TMP/out, stderr $TMP/err), waits until
# its stderr holds PATTERN, then DELAY seconds, sends SIG to it alone and leaves its exit status
# in $rc
signal_after() {
	local sig=$1 pat=$2 delay=$3 pid
	shift 3
	"$@" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	wait_grep "$TMP/err" "$pat" $pid
	sleep "$delay"
	kill -s "$sig" "$pid"
	wait "$pid"
	rc=$?
}

test_expect_success 'ARCHSCOPE_PRELOAD naming no shared library: exit 2 naming it and why, the program never runs' '
	[ -f "$LIB" ] || skip "needs the preload library beside $ARCHSCOPE"
	echo "not a library" >"$TMP/data.so"
	mkdir "$TMP/dir.so"
	head -c 3000 "$LIB" >"$TMP/cut.so"
	cp "$LIB" "$TMP/with space.so"
	for bad in "$TMP/data.so:not an ELF file" "$TMP/dir.so:a directory" "$TMP/cut.so:cut short" \
		"/nonexistent/lib.so:No such file" "/bin/true:executable" "/dev/null:not a regular file" \
		"$TMP/with space.so:space"; do
		ARCHSCOPE_PRELOAD=${bad%%:*} run 2 "$ARCHSCOPE" stack -q -t 1 -r 1 -- sh -c "touch \"$TMP/ran\""
		contains "$TMP/err" "ARCHSCOPE_PRELOAD"
		contains "$TMP/err" "${bad##*:}"
		[ ! -e "$TMP/ran" ] || fail "the program ran under ARCHSCOPE_PRELOAD=${bad%%:*}"
	done
	cp "$LIB" "$TMP/good.so"
	ARCHSCOPE_PRELOAD=$TMP/good.so run 0 "$ARCHSCOPE" stack -q -t 1 -r 1 --json -- "$EX/stack-parallel" 1 100
	[ "$(json_get "d[\"results\"][\"runs\"][0][\"threads_max\"]")" -ge 1 ] || fail "no thread recorded"
'
test_expect_success 'unreadable records beside good ones are skipped and counted; the stacks stand' '
	[ -x "$EX/stack-parallel" ] || skip "needs the stack examples beside $ARCHSCOPE"
	# each run leaves an empty record and one cut inside a line, as a killed process did
	run 0 "$ARCHSCOPE" stack -q -t 1,2 -r 1 --json -- sh -c \
		"printf \"V 2\\nT 1 2\" >\"\$ARCHSCOPE_STACK_DIR/rec.99999.1\"; : >\"\$ARCHSCOPE_STACK_DIR/rec.99998.2\"; exec \"$EX/stack-parallel\" {T} 100"
	"$PY" - "$TMP/out" <<-\PY || fail "JSON"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]
	assert r["records_unreadable"] == 4, r.get("records_unreadable")  # 2 runs x 2
	for p in r["runs"]:
	    assert p["speedup_estimated"] > 0 and p["threads_max"] >= 1 and p["processes"] >= 1, p
	    assert "rejected" not in p, p["rejected"]
	    assert any("could not be read" in n for n in p["notes"]), p["notes"]
	PY
	run 0 "$ARCHSCOPE" stack -q -t 1 -r 1 -- sh -c \
		": >\"\$ARCHSCOPE_STACK_DIR/rec.99998.2\"; exec \"$EX/stack-parallel\" 1 100"
	contains "$TMP/out" "records unreadable  *1"
'

test_expect_success 'a child SIGKILLed right after its fork loses no run' '
	[ -x "$EX/stack-parallel" ] || skip "needs the stack examples beside $ARCHSCOPE"
	run 0 "$ARCHSCOPE" stack -q -t 1,2 -r 2 --json -- sh -c \
		"for i in 1 2 3 4 5 6; do sleep 5 & kill -9 \$!; done; exec \"$EX/stack-parallel\" {T} 100"
	"$PY" - "$TMP/out" <<-\PY || fail "JSON"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]
	for p in r["runs"]:
	    assert p["speedup_estimated"] > 0 and p["threads_max"] >= 1 and p["processes"] >= 1, p
	    assert "rejected" not in p or "lost" not in p["rejected"]["why"], p["rejected"]
	PY
'

test_expect_success 'a run whose own process lost its record is rejected and repeated; every try lost: exit 1' '
	[ -f "$LIB" ] || skip "needs the preload library beside $ARCHSCOPE"
	# an orphan empties every record once the program (the root) has written its own and ended
	run 1 "$ARCHSCOPE" stack -q -t 1 -r 1 --json -- sh -c \
		"(sleep 1.5; for f in \"\$ARCHSCOPE_STACK_DIR\"/rec.*; do : >\"\$f\"; done) & exit 0"
	contains "$TMP/err" "every run of a thread count was rejected"
	"$PY" - "$TMP/out" <<-\PY || fail "JSON"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]
	p = r["runs"][0]
	assert p["rejected"]["runs"] >= 3 and "records were lost" in p["rejected"]["why"], p["rejected"]
	assert r["records_unreadable"] >= 3, r["records_unreadable"]
	PY
'

# stat: the runs write a line when they start, then sleep; the third is cut
stat_cut() { # SIG ARGS...: stat -r 5 ARGS, signalled in its third run
	local sig=$1 pid i=0
	shift
	: >"$TMP/mark"
	"$ARCHSCOPE" stat -q -r 5 -e task-clock "$@" -- sh -c "echo s >>\"$TMP/mark\"; sleep 2" >/dev/null 2>"$TMP/err" &
	pid=$!
	until [ "$(wc -l <"$TMP/mark")" -ge 3 ]; do
		i=$((i + 1))
		[ $i -lt 3000 ] || { kill -KILL "$pid"; fail "the third run never started"; }
		sleep 0.1
	done
	sleep 0.3
	kill -s "$sig" "$pid"
	wait "$pid"
	rc=$?
}

test_expect_success 'interrupted stat -o FILE (no file before): not written, the text then the JSON on stderr' '
	stat_cut INT -o "$TMP/new.json"
	[ "$rc" -eq 130 ] || fail "exit $rc, expected 130"
	[ ! -e "$TMP/new.json" ] || fail "an interrupted result was written to -o"
	contains "$TMP/err" "new.json.* not written: an interrupted result is never saved (the JSON follows on stderr)"
	! grep -q "left as it was" "$TMP/err" || fail "says left as it was where there was no file"
	contains "$TMP/err" "interrupted  *by Interrupt after 2 of 5 runs"
	sed -n "/^{/,\$p" "$TMP/err" >"$TMP/res.json"
	"$PY" - "$TMP/res.json" <<-\PY || fail "the JSON on stderr"
	import json, sys
	d = json.load(open(sys.argv[1]))["results"]
	assert d["interrupted"] is True and d["runs_done"] == 2, d
	PY
'

test_expect_success 'interrupted stat -o FILE (a file before): left as it was, the JSON on stderr; -x: the CSV' '
	echo old >"$TMP/keep.json"
	stat_cut TERM -o "$TMP/keep.json"
	[ "$rc" -eq 130 ] || fail "exit $rc, expected 130"
	[ "$(cat "$TMP/keep.json")" = old ] || fail "-o was replaced"
	contains "$TMP/err" "keep.json.* is left as it was"
	sed -n "/^{/,\$p" "$TMP/err" | "$PY" -c "import json,sys; assert json.load(sys.stdin)[\"results\"][\"interrupted\"]" ||
		fail "no JSON on stderr"
	stat_cut INT -x, -o "$TMP/new.csv"
	[ "$rc" -eq 130 ] || fail "-x: exit $rc, expected 130"
	[ ! -e "$TMP/new.csv" ] || fail "-x: an interrupted result was written"
	contains "$TMP/err" "new.csv.* not written: .*the CSV follows on stderr"
	contains "$TMP/err" "task-clock"
'

test_expect_success GCC 'tune gemm: SIGTERM or SIGINT stops it, prints what was measured, 130, its directory removed' '
	mkdir "$TMP/tmpd"
	for sig in TERM INT; do
		TMPDIR=$TMP/tmpd signal_after $sig "tune gemm: timing, repetition" 1 "$ARCHSCOPE" tune gemm -m "$zen5" --reps 1000 --max-size 256
		[ "$rc" -eq 130 ] || { cat "$TMP/err"; fail "SIG$sig: exit $rc, expected 130"; }
		contains "$TMP/out" "incomplete  *yes"
		contains "$TMP/err" "interrupted: .* matrix sizes timed"
		[ -z "$(ls "$TMP/tmpd")" ] || fail "SIG$sig: left in TMPDIR: $(ls "$TMP/tmpd")"
	done
	# a second signal ends it at once: the directory goes all the same
	TMPDIR=$TMP/tmpd "$ARCHSCOPE" tune gemm -m "$zen5" --reps 1000 --max-size 256 >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	wait_grep "$TMP/err" "tune gemm: timing, repetition" $pid
	kill -INT $pid; kill -INT $pid
	wait $pid
	rc=$?
	[ "$rc" -eq 130 ] || fail "twice: exit $rc, expected 130"
	[ -z "$(ls "$TMP/tmpd")" ] || fail "twice: left in TMPDIR: $(ls "$TMP/tmpd")"
'

test_expect_success LIBCLANG 'tune stencil interrupted: 130, marked incomplete, never zeros as a result' '
	# a 4 MiB last cache: a 64 MiB grid, 1000 repetitions of two sweeps take seconds
	sed "s/{sets: 32768, ways: 16,/{sets: 4096, ways: 16,/; s/size per group: 32 MiB/size per group: 4 MiB/" \
		"$zen5" >"$TMP/l3-4m.yaml"
	for sig in INT TERM; do
		signal_after $sig "tune stencil: " 1.5 "$ARCHSCOPE" tune stencil -m "$TMP/l3-4m.yaml" --reps 1000 --json
		[ "$rc" -eq 130 ] || { cat "$TMP/err"; fail "SIG$sig: exit $rc, expected 130"; }
		contains "$TMP/err" "interrupted: .* of 1000 repetitions timed"
		"$PY" - "$TMP/out" <<-\PY || fail "SIG$sig: JSON"
		import json, sys
		r = json.load(open(sys.argv[1]))["results"]
		assert r["incomplete"] is True and r["reps"] < 1000, r
		if r["reps"]:
		    assert r["naive"]["mlups"] > 0 and r["blocked"]["mlups"] > 0 and r["speedup"] > 0, r
		else:
		    assert r["naive"] is None and r["blocked"] is None and r["speedup"] is None, r
		PY
	done
'

test_expect_success 'bench and probe: SIGTERM stops them with what was measured, 130 (was 143, nothing printed)' '
	signal_after TERM "progress" 1 "$ARCHSCOPE" bench copy --sweep --json
	[ "$rc" -eq 130 ] || { cat "$TMP/err"; fail "bench: exit $rc, expected 130"; }
	"$PY" -c "import json; d=json.load(open(\"$TMP/out\"))[\"results\"]; assert d[\"incomplete\"] is True" ||
		fail "bench: the JSON"
	signal_after TERM "progress" 1 "$ARCHSCOPE" probe caches --json
	[ "$rc" -eq 130 ] || { cat "$TMP/err"; fail "probe: exit $rc, expected 130"; }
	"$PY" -c "import json; d=json.load(open(\"$TMP/out\"))[\"results\"]; assert d[\"incomplete\"] is True" ||
		fail "probe: the JSON"
	contains "$TMP/err" "interrupted: printing what was measured so far"
'

test_done
