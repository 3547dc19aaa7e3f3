# Every file a command reads goes through one checked reader (issue 35, item 3): a FIFO, /dev/zero,
# /dev/null, a directory, a file with a NUL byte, bytes that are not UTF-8, an empty file and a
# missing one give a clear error (exit 2, the file named) on every reader, never a hang, never
# reading until memory runs out, never "0 samples". One row per reader: how to give it FILE.
. "$ROOT/tests/cli/lib.sh"
FIX=$ROOT/tests/fixtures
mkfifo "$TMP/fifo"
mkdir "$TMP/dir"
printf '1\0002,3\n' >"$TMP/nul"
printf '# caf\351\n1,2\n' >"$TMP/latin1"
: >"$TMP/empty"

# name|command line with FILE for the input (word-split; no spaces in paths here)
readers="
memhist --from|memhist --from FILE
numa model --matrix|numa model --matrix FILE --flow 0:0:1
numa load --predict|numa load 0:0:1 --dry-run --predict FILE
numa load --topology|numa load 0:0:1 --dry-run --topology FILE
analyze|analyze --method monotone FILE
compare A|compare FILE $FIX/measure/compare-b.json
compare B|compare $FIX/measure/compare-a.json FILE
tune -m|tune stencil -m FILE
model -m|model $ROOT/kernels/3d-7pt.c -D N 100 -D M 100 -m FILE
model KERNEL|model FILE -m $ROOT/machines/kvm-xeon-6-207.yaml
machine validate|machine validate FILE
machine show|machine show FILE
machine diff|machine diff FILE $ROOT/machines/kvm-xeon-6-207.yaml
"
# input|what the message must say besides the file's name
inputs="
$TMP/fifo|a FIFO
/dev/zero|a character device
/dev/null|a character device
$TMP/dir|a directory
$TMP/nul|NUL byte
$TMP/latin1|not UTF-8
$TMP/missing|no such file
"
# refused NAME ARGS INPUT WHY: the reader exits 2 (within 20 s) naming INPUT and saying WHY
refused() {
	local rc
	# shellcheck disable=SC2086
	timeout 20 "$ARCHSCOPE" $2 >"$TMP/out" 2>"$TMP/err"
	rc=$?
	cat "$TMP/err"
	[ "$rc" -ne 124 ] || fail "$1 $3: hangs"
	[ "$rc" -eq 2 ] || fail "$1 $3: exit $rc, expected 2"
	grep -qF -- "$3" "$TMP/err" || fail "$1 $3: the message does not name the file"
	[ -z "$4" ] || grep -q -- "$4" "$TMP/err" || fail "$1 $3: the message does not say '$4'"
}
n=0
while IFS='|' read -r name cmd; do
	[ -n "$name" ] || continue
	while IFS='|' read -r input why; do
		[ -n "$input" ] || continue
		test_expect_success "$name: ${input#"$TMP"/}: $why" 'refused "$name" "${cmd//FILE/$input}" "$input" "$why"'
		n=$((n + 1))
	done <<<"$inputs"
	# an empty file is no input either: an error naming it, never an empty result
	test_expect_success "$name: an empty file" 'refused "$name" "${cmd//FILE/$TMP/empty}" "$TMP/empty" ""'
done <<<"$readers"
[ "$n" -ge 91 ] || fail "only $n readers and inputs were tried"

# '-' is standard input on every reader, a pipe included; an endless device on it is refused
test_expect_success 'memhist --from - reads standard input' '
	run 0 sh -c "\"$ARCHSCOPE\" memhist --from - <\"$FIX/measure/memhist-amd.jsonl\""
'
test_expect_success 'numa model --matrix - reads a pipe' '
	run 0 sh -c "cat \"$FIX/numa/matrix-2node.json\" | \"$ARCHSCOPE\" numa model --matrix - --flow 0:1:1"
'
test_expect_success 'analyze - reads a pipe' '
	run 0 sh -c "cat \"$FIX/kvm-xeon-6-207/caches.csv\" | \"$ARCHSCOPE\" analyze --method monotone -"
'
test_expect_success '/dev/zero on standard input is refused' '
	run 2 timeout 20 sh -c "\"$ARCHSCOPE\" memhist --from - </dev/zero"
	contains "$TMP/err" "standard input is a character device"
'
test_expect_success '3 GB of NUL bytes through a pipe are refused' '
	run 2 timeout 20 sh -c "head -c 3000000000 /dev/zero | \"$ARCHSCOPE\" memhist --from -"
	contains "$TMP/err" "NUL byte"
'
# HWLOC_XMLFILE is read by the same reader
test_expect_success 'HWLOC_XMLFILE a FIFO' '
	HWLOC_XMLFILE=$TMP/fifo run 2 timeout 20 "$ARCHSCOPE" topology
	contains "$TMP/err" "HWLOC_XMLFILE"
'
test_done
