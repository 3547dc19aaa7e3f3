#!/bin/bash
# probe -o FILE --hwloc FILE.xml (issue 51 item 2): the hwloc XML written beside the machine file,
# from it, as `machine export --hwloc -m FILE` writes it; measuring nothing (--from-raw of a
# recorded run), so it holds under any load. --hwloc without -o, an empty name or an unwritable
# place are usage errors before anything runs.
. "$(dirname "$0")/lib.sh"
command -v lstopo-no-graphics >/dev/null || skip "needs lstopo-no-graphics (Debian package hwloc)"
cd "$TMP" || exit 1
R=$ROOT/tests/fixtures/kvm-xeon-6-207/probe-o
test_expect_success 'probe -o --from-raw --hwloc writes both files; the XML is machine export'\''s of that file' '
	run 0 "$ARCHSCOPE" probe -o m.yaml --from-raw "$R" --hwloc m.xml
	[ -s m.yaml ] && [ -s m.xml ] || fail "no machine file or no XML"
	contains "$TMP/err" "wrote .m.xml.: Latency and Bandwidth of"
	run 0 "$ARCHSCOPE" machine export --hwloc again.xml -m m.yaml
	for k in ArchscopeMeasuredSize ArchscopeMeasuredLineSize; do
		[ "$(grep -o "name=\"$k\" value=\"[0-9]*\"" m.xml | sort)" = "$(grep -o "name=\"$k\" value=\"[0-9]*\"" again.xml | sort)" ] ||
			fail "$k differs from machine export'\''s"
		grep -q "name=\"$k\"" m.xml || fail "no $k in the XML"
	done
	run 0 lstopo-no-graphics --input m.xml --memattrs
	nodes=$(lstopo-no-graphics --input m.xml --only NUMANode | wc -l)
	[ "$(sed -n "/name .Latency./,/^Memory/p" "$TMP/out" | grep -c "NUMANode L#[0-9]* = [1-9][0-9]* from cpuset")" = "$nodes" ] ||
		fail "no Latency on each of $nodes nodes"
'
test_expect_success '--hwloc without -o, with an empty name or into a missing directory: exit 2, nothing written' '
	run 2 "$ARCHSCOPE" probe --hwloc x.xml line
	contains "$TMP/err" "--hwloc needs -o"
	run 2 "$ARCHSCOPE" probe -o n.yaml --from-raw "$R" --hwloc ""
	run 2 "$ARCHSCOPE" probe -o n.yaml --from-raw "$R" --hwloc /nonexistent-dir/x.xml
	contains "$TMP/err" "/nonexistent-dir/x.xml"
	[ ! -e n.yaml ] || fail "the machine file was written after a usage error"
'
test_done
