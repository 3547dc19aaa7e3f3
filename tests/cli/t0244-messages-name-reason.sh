# Messages name the thing and the reason (issue 35, item 8): a topology XML that is not one says
# which file, which line and what is wrong (not "Invalid argument"); a bad TMPDIR is named; a
# long message is not cut at 511 bytes (a long path comes out whole, a message longer than the
# room ends in "…").
. "$(dirname "$0")/lib.sh"
printf '<?xml version="1.0"?>\n<topology>\n<object type="Machine" os_index="0">\n</topology>\n' >"$TMP/bad.xml"
printf '<?xml version="1.0"?>\n<html><body/></html>\n' >"$TMP/html.xml"
printf '<?xml version="1.0"?>\n<topology>\n  <object type="Package"/>\n</topology>\n' >"$TMP/nomachine.xml"
test_expect_success 'a topology file that is not XML: file, line and what is wrong' '
	run 2 "$ARCHSCOPE" numa load 0:0:1 --dry-run --topology "$TMP/bad.xml"
	contains "$TMP/err" "topology file '\''$TMP/bad.xml'\'': line 4: not well-formed XML: opening and ending tag mismatch"
	! grep -q "Invalid argument" "$TMP/err" || fail "the XML error is '\''Invalid argument'\''"
	[ "$(grep -c . "$TMP/err")" -eq 1 ] || fail "libxml2 printed on stderr besides the error"
'
test_expect_success 'a topology file whose root is not <topology>' '
	run 2 "$ARCHSCOPE" numa load 0:0:1 --dry-run --topology "$TMP/html.xml"
	contains "$TMP/err" "the root element is <html>, not <topology>"
'
test_expect_success 'a topology file without a Machine object' '
	run 2 "$ARCHSCOPE" numa load 0:0:1 --dry-run --topology "$TMP/nomachine.xml"
	contains "$TMP/err" "line 3: <topology> does not start with <object type=\"Machine\">"
'
test_expect_success 'a bad HWLOC_XMLFILE is named as such' '
	HWLOC_XMLFILE=$TMP/bad.xml run 2 "$ARCHSCOPE" topology
	contains "$TMP/err" "(HWLOC_XMLFILE)"
'
# a TMPDIR that is not there is named, with where it came from
test_expect_success 'a missing TMPDIR (stat)' '
	TMPDIR=$TMP/no/such run 2 "$ARCHSCOPE" stat -q -r 1 -- true
	contains "$TMP/err" "cannot make a temporary file in '\''$TMP/no/such'\'' (TMPDIR): no such file or directory"
'
test_expect_success GCC 'a missing TMPDIR (tune)' '
	TMPDIR=$TMP/no/such run 1 "$ARCHSCOPE" tune gemm -q --short -m "$ROOT/tests/fixtures/tune/zen5-published.yaml"
	contains "$TMP/err" "'\''$TMP/no/such'\'' (TMPDIR)"
'
# a long path is named whole (it was cut at 511 bytes)
test_expect_success 'a 600-byte path is named whole' '
	long=$TMP/$(printf "d%.0s" $(seq 1 200))/$(printf "e%.0s" $(seq 1 200))/$(printf "f%.0s" $(seq 1 200)).yaml
	run 2 "$ARCHSCOPE" machine validate "$long"
	contains "$TMP/err" "$long'\'': no such file or directory"
'
test_done
