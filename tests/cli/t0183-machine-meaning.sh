# Machine files are checked by meaning, not only by shape (issue 29): a clock outside 0.1-10 GHz,
# a negative throughput, load_from naming no level, sizes that shrink with the level, a cut-off
# file and one from an interrupted probe are refused (exit 2) naming line and key; probe -o
# --from-raw does not write a file that would fail these checks (exit 1).
. "$(dirname "$0")/lib.sh"
F="$ROOT/machines/nehalem-i7-920.yaml"
check() { # FILE MESSAGE
	run 2 "$ARCHSCOPE" machine validate "$1"
	contains "$TMP/err" "$2"
}
sed 's/^clock: 2.67 GHz/clock: 1e299 GHz/' "$F" >"$TMP/c1.yaml"
sed 's/^clock: 2.67 GHz/clock: 1e308 GHz/' "$F" >"$TMP/c2.yaml"
sed '31s|32 B/cy|-32 B/cy|' "$F" >"$TMP/neg.yaml"
sed 's/load_from: L2,/load_from: L9,/' "$F" >"$TMP/l9.yaml"
sed 's/sets: 512,/sets: 8,/' "$F" >"$TMP/shrink.yaml"
head -n 25 "$F" >"$TMP/part.yaml"
grep -v "^FLOPs per cycle\|^  [SD]P:\|^    [A-Z]" "$F" >"$TMP/noflops.yaml"
{ cat "$F"; printf 'archscope:\n  incomplete: true\n'; } >"$TMP/inc.yaml"

test_expect_success 'a clock outside 0.1 to 10 GHz, named by line' '
	check "$TMP/c1.yaml" "line 9: clock: 1e299 GHz is outside 0.1 to 10 GHz"
'
test_expect_success 'a clock that overflows' '
	check "$TMP/c2.yaml" "clock: expected a positive frequency"
'
test_expect_success 'a negative throughput' '
	check "$TMP/neg.yaml" "upstream throughput\[0\]: expected a positive rate"
'
test_expect_success 'load_from naming no level' '
	check "$TMP/l9.yaml" "load_from: '\''L9'\'' is no other level"
'
test_expect_success 'a cache smaller than the one above it' '
	check "$TMP/shrink.yaml" "L2 holds 4 KiB per group, less than L1 above it (32 KiB)"
'
test_expect_success 'a cut-off file' '
	check "$TMP/part.yaml" "incomplete: the hierarchy ends with cache L1"
'
test_expect_success 'a missing key' '
	check "$TMP/noflops.yaml" "incomplete: missing key '\''FLOPs per cycle'\''"
'
test_expect_success 'a file from an interrupted probe -o' '
	check "$TMP/inc.yaml" "interrupted '\''probe -o'\''"
'
# model refuses them too
test_expect_success 'model refuses them too' '
	run 2 "$ARCHSCOPE" model "$ROOT/kernels/copy.c" -m "$TMP/l9.yaml" -D N 1000
'
# --from-raw with results that make no valid machine: nothing written, exit 1
test_expect_success '--from-raw with results that make no valid machine: nothing written, exit 1' '
	mkdir "$TMP/raw"
	echo "{}" >"$TMP/raw/probe-results.json"
	run 1 "$ARCHSCOPE" probe -o "$TMP/out.yaml" --from-raw "$TMP/raw"
	contains "$TMP/err" "not writing"
	[ ! -e "$TMP/out.yaml" ] || fail "--from-raw wrote an invalid file"
'
test_expect_success '--from-raw with results that are no JSON object: exit 2' '
	mkdir "$TMP/raw2"
	echo "[1, 2]" >"$TMP/raw2/probe-results.json"
	run 2 "$ARCHSCOPE" probe -o "$TMP/out.yaml" --from-raw "$TMP/raw2"
	contains "$TMP/err" "not a JSON object"
'
# standard input
test_expect_success 'machine validate - reads standard input' '
	run 0 "$ARCHSCOPE" machine validate - <"$F"
	contains "$TMP/out" "<stdin>: valid\|-: valid"
'
test_done
