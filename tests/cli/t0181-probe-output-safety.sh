# probe -o never replaces what it should not (issue 29): a symbolic link, a FIFO, a device or a
# directory is refused unless --force; --raw and --plot into a directory that cannot be written
# fail before measuring; an interrupted run keeps a complete file and writes PATH.partial (and
# NAME.partial.csv beside a saved curve).
. "$(dirname "$0")/lib.sh"
R="$ROOT/tests/fixtures/kvm-xeon-6-207/probe-o"
echo keep >"$TMP/target.yaml"
ln -s target.yaml "$TMP/link.yaml"
mkfifo "$TMP/fifo"
test_expect_success 'probe -o refuses a link, a FIFO, a device and a directory: exit 2, nothing replaced' '
	for p in "$TMP/link.yaml" "$TMP/fifo" /dev/null "$TMP"; do
		timeout 10 "$ARCHSCOPE" probe -o "$p" --from-raw "$R" >"$TMP/out" 2>"$TMP/err"; rc=$?
		[ "$rc" -eq 2 ] || { cat "$TMP/err" >&2; fail "probe -o $p exited $rc, expected 2"; }
		contains "$TMP/err" "not replaced\|is a directory"
	done
	[ "$(cat "$TMP/target.yaml")" = keep ] || fail "the link'\''s target was replaced"
	[ -p "$TMP/fifo" ] && [ -L "$TMP/link.yaml" ] || fail "the FIFO or the link was replaced"
'
# --force writes through the link (the link stays) and into the FIFO
test_expect_success '--force writes through the link (the link stays) and into the FIFO' '
	run 0 "$ARCHSCOPE" probe -o "$TMP/link.yaml" --force --from-raw "$R"
	[ -L "$TMP/link.yaml" ] || fail "--force replaced the link itself"
	contains "$TMP/target.yaml" "written by archscope"
	cat "$TMP/fifo" >"$TMP/fifo.out" &
	reader=$!
	run 0 timeout 10 "$ARCHSCOPE" probe -o "$TMP/fifo" --force --from-raw "$R"
	wait $reader
	contains "$TMP/fifo.out" "written by archscope"
'
test_expect_success '--force without -o: exit 2' '
	run 2 "$ARCHSCOPE" probe --force clock
'
# --raw and --plot into a directory nothing can be written to: exit 2 (bad input) before measuring
test_expect_success '--raw and --plot into a directory nothing can be written to: exit 2 before measuring' '
	run 2 timeout 10 "$ARCHSCOPE" probe clock --plot /proc/sys/kernel
	contains "$TMP/err" "cannot"
	run 2 timeout 10 "$ARCHSCOPE" probe clock --raw /proc/sys/kernel
	run 2 timeout 10 "$ARCHSCOPE" bench copy --sweep --plot /proc/sys/kernel
'
# an interrupted probe -o keeps the complete file there and writes the partial one beside it
test_expect_success 'an interrupted probe -o keeps the complete file and writes PATH.partial' '
	cp "$TMP/target.yaml" "$TMP/complete.yaml"
	"$ARCHSCOPE" probe -o "$TMP/complete.yaml" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	sleep 1.5
	kill -INT "$pid"
	wait "$pid"; rc=$?
	[ "$rc" -eq 130 ] || { cat "$TMP/err" >&2; fail "probe -o: exit $rc after SIGINT, expected 130"; }
	cmp -s "$TMP/complete.yaml" "$TMP/target.yaml" || fail "an interrupted run replaced a complete file"
	grep -q "incomplete: true" "$TMP/complete.yaml.partial" || fail "no PATH.partial marked incomplete"
	contains "$TMP/err" "kept as it was"
'
# nor a curve saved with --raw: the cut curve goes to NAME.partial.csv. The caches probe runs for
# several seconds on any machine (the line probe can end within the wait on a fast one).
test_expect_success 'an interrupted probe --raw keeps a saved curve' '
	mkdir "$TMP/raw"
	echo "kept" >"$TMP/raw/caches.csv"
	"$ARCHSCOPE" probe caches --raw "$TMP/raw" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	sleep 1
	kill -INT "$pid" || fail "probe caches ended within 1 s, before it could be interrupted"
	wait "$pid"
	[ "$(cat "$TMP/raw/caches.csv")" = kept ] || fail "an interrupted probe replaced a saved curve"
'
test_done
