# Reports never go into the program's streams (issue 35): stat, regress and phases print their report
# on stderr (as perf stat), or to -o FILE; the program's stdout stays its own, so a compressor's
# output through archscope is a valid archive. zstd (installed by scripts/setup.sh) is a program
# nobody here wrote that writes binary data to stdout; gzip stands in where it is missing.
. "$(dirname "$0")/lib.sh"
seq 1 200000 >"$TMP/in.txt"
if command -v zstd >/dev/null; then
	Z=zstd; T="zstd -t -q"; D="zstd -dc"
else
	Z=gzip; T="gzip -t"; D="gzip -dc"
fi
test_expect_success 'stat: the report on stderr, the archive on stdout holds the input twice' '
	"$ARCHSCOPE" stat -q -r 2 -e task-clock,page-faults -- $Z -c "$TMP/in.txt" >"$TMP/a.z" 2>"$TMP/err" || fail "stat -- $Z exited $?"
	$T "$TMP/a.z" || fail "stat -- $Z -c: the archive is not valid"
	# two runs wrote the archive twice: each run'\''s stdout is the program'\''s, nothing of ours in between
	$D "$TMP/a.z" | cmp -s - <(cat "$TMP/in.txt" "$TMP/in.txt") || fail "stat -- $Z -c: the archive does not hold the input twice"
	contains "$TMP/err" "task-clock"
	contains "$TMP/err" "standard error of the mean"
'
test_expect_success 'stat --json: the JSON on stderr, never in the program'\''s stdout' '
	"$ARCHSCOPE" stat -q -r 1 --json -e task-clock -- $Z -c "$TMP/in.txt" >"$TMP/b.z" 2>"$TMP/err" || fail "stat --json exited $?"
	$T "$TMP/b.z" || fail "stat --json -- $Z -c: the archive is not valid"
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d[\"command\"]==\"stat\"" "$TMP/err" ||
		fail "stat --json: stderr is not the JSON result"
'
test_expect_success 'stat -o FILE: the JSON there, the text on stderr' '
	"$ARCHSCOPE" stat -q -r 1 -e task-clock -o "$TMP/r.json" -- $Z -c "$TMP/in.txt" >"$TMP/c.z" 2>"$TMP/err" || fail "stat -o exited $?"
	$T "$TMP/c.z" || fail "stat -o: the archive is not valid"
	python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$TMP/r.json" || fail "stat -o: not JSON"
	contains "$TMP/err" "task-clock"
'
test_expect_success 'stat -x: CSV on stderr' '
	"$ARCHSCOPE" stat -q -r 1 -x, -e task-clock -- $Z -c "$TMP/in.txt" >"$TMP/d.z" 2>"$TMP/err" || fail "stat -x exited $?"
	$T "$TMP/d.z" || fail "stat -x: the archive is not valid"
	grep -q "^[0-9.]*,msec,task-clock," "$TMP/err" || fail "stat -x: no CSV line for task-clock on stderr"
'
test_expect_success 'regress: the program'\''s output stays a valid archive stream' '
	"$ARCHSCOPE" regress -q --param N=1,2 -r 1 -e page-faults -- sh -c "head -n {N}00000 '\''$TMP/in.txt'\'' | $Z -c" >"$TMP/e.z" 2>"$TMP/err" ||
		fail "regress exited $?"
	$T "$TMP/e.z" || fail "regress: the program'\''s output is not a valid archive stream"
	contains "$TMP/err" "page-faults"
'
test_expect_success 'phases: the archive is valid, the report on stderr' '
	"$ARCHSCOPE" phases -q --interval 1 --segments 1 -e task-clock -- sh -c "$Z -c '\''$TMP/in.txt'\''; sleep 0.05" >"$TMP/f.z" 2>"$TMP/err" ||
		fail "phases exited $? ($(tail -n 3 "$TMP/err"))"
	$T "$TMP/f.z" || fail "phases: the archive is not valid"
	contains "$TMP/err" "segments"
'
test_done
