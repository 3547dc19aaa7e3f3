# machine files: Kerncraft's files and every file in machines/ validate; archscope's files read
# back and written again give the same bytes; probe -o --from-raw writes a valid file from recorded
# data; diff prints a table; bad files exit 2 naming the line and key; Ctrl-C in probe -o writes
# a file marked incomplete.
. "$(dirname "$0")/lib.sh"
root=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
test_expect_success 'every Kerncraft fixture and machines/ file validates and reads back to the same bytes' '
	for f in "$root"/tests/fixtures/machines/*.yml "$root"/machines/*.yaml; do
		run 0 "$ARCHSCOPE" machine validate "$f"
		"$ARCHSCOPE" machine show --yaml "$f" >"$TMP/a.yaml" || fail "show --yaml $f"
		"$ARCHSCOPE" machine show --yaml "$TMP/a.yaml" >"$TMP/b.yaml" || fail "show --yaml again"
		cmp -s "$TMP/a.yaml" "$TMP/b.yaml" || fail "round trip of $f is not byte-identical"
	done
'
test_expect_success 'every file in machines/ is in the canonical form' '
	for f in "$root"/machines/*.yaml; do
		"$ARCHSCOPE" machine show --yaml "$f" | cmp -s - "$f" || fail "$f is not in the canonical form"
	done
'
test_expect_success 'machine show: the clock and the cache sizes' '
	run 0 "$ARCHSCOPE" machine show "$root/tests/fixtures/machines/kerncraft-skx.yml"
	contains "$TMP/out" "2.4 GHz"
	contains "$TMP/out" "27.5 MiB"
'
test_expect_success 'machine show --json' '
	run 0 "$ARCHSCOPE" machine show --json "$root/machines/nehalem-i7-920.yaml"
	json_get "d[\"results\"][\"machine\"][\"cores per socket\"]" | grep -qx 4 || fail "show --json"
'

# probe -o from recorded raw data (a KVM guest of a Xeon, 2 CPUs)
run 0 "$ARCHSCOPE" probe -o "$TMP/m.yaml" --from-raw "$root/tests/fixtures/kvm-xeon-6-207/probe-o"
test_expect_success 'probe -o --from-raw: a valid, canonical file with the cores, the archscope section, levels and bandwidths' '
	run 0 "$ARCHSCOPE" machine validate "$TMP/m.yaml"
	grep -q "^cores per socket: 2$" "$TMP/m.yaml" || fail "cores per socket from the contexts probe"
	grep -q "^  archscope\|^archscope:" "$TMP/m.yaml" || fail "archscope section"
	grep -q "L2" "$TMP/m.yaml" && grep -q "GB/s" "$TMP/m.yaml" || fail "levels and bandwidths"
	"$ARCHSCOPE" machine show --yaml "$TMP/m.yaml" | cmp -s - "$TMP/m.yaml" || fail "probe -o output is not canonical"
'
# they differ: exit 1, as diff(1) (issue 29)
test_expect_success 'machine diff: files that differ exit 1, with a table' '
	run 1 "$ARCHSCOPE" machine diff "$TMP/m.yaml" "$root/machines/nehalem-i7-920.yaml"
	contains "$TMP/out" "clock"
	contains "$TMP/out" "<>"
'

# bad files
test_expect_success 'an empty file' '
	: >"$TMP/empty.yaml"
	run 2 "$ARCHSCOPE" machine validate "$TMP/empty.yaml"
	contains "$TMP/err" "empty"
'
test_expect_success 'a binary file' '
	printf "model\000name\001" >"$TMP/bin.yaml"
	run 2 "$ARCHSCOPE" machine validate "$TMP/bin.yaml"
	contains "$TMP/err" "binary"
'
test_expect_success 'a YAML syntax error names its line' '
	printf "model name: x\nclock: [1 GHz\n" >"$TMP/bad.yaml"
	run 2 "$ARCHSCOPE" machine show "$TMP/bad.yaml"
	contains "$TMP/err" "line "
'
test_expect_success 'a negative way count names its key' '
	sed "s/ways: 8/ways: -8/" "$root/machines/nehalem-i7-920.yaml" >"$TMP/neg.yaml"
	run 2 "$ARCHSCOPE" machine validate "$TMP/neg.yaml"
	contains "$TMP/err" "memory hierarchy\[0\].cache per group.ways: expected a positive integer"
'
test_expect_success 'a missing clock' '
	grep -v "^clock:" "$root/machines/nehalem-i7-920.yaml" >"$TMP/noclock.yaml"
	run 2 "$ARCHSCOPE" machine validate "$TMP/noclock.yaml"
	contains "$TMP/err" "missing key '\''clock'\''"
'
test_expect_success 'a missing file, an unknown subcommand, probe -o with groups, --from-raw without -o' '
	run 2 "$ARCHSCOPE" machine validate "$TMP/nonexistent.yaml"
	run 2 "$ARCHSCOPE" machine frobnicate x
	run 2 "$ARCHSCOPE" probe -o "$TMP/x.yaml" caches
	run 2 "$ARCHSCOPE" probe --from-raw "$TMP"
'

# Ctrl-C during probe -o: the file is written and marked incomplete
test_expect_success 'Ctrl-C during probe -o: the file is written and marked incomplete' '
	"$ARCHSCOPE" probe -o "$TMP/part.yaml" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	sleep 1.5
	kill -INT "$pid"
	wait "$pid"; rc=$?
	[ "$rc" -eq 130 ] || { cat "$TMP/err" >&2; fail "probe -o: exit $rc after SIGINT, expected 130"; }
	grep -q "INCOMPLETE" "$TMP/part.yaml" || fail "partial machine file not marked"
	grep -q "incomplete: true" "$TMP/part.yaml" || fail "archscope.incomplete"
'
test_done
