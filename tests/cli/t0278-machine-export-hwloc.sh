#!/bin/bash
# machine export --hwloc (issue 51 item 2): this machine's hwloc topology with a machine file's
# measured memory latency and bandwidth as hwloc memory attributes and its cache sizes as info
# attributes; lstopo reads them back from the XML (hwloc's C API reads them in u-topo).
. "$(dirname "$0")/lib.sh"
command -v lstopo-no-graphics >/dev/null || skip "needs lstopo-no-graphics (Debian package hwloc)"
cd "$TMP" || exit 1
M=$ROOT/machines/kvm-xeon-6-207.yaml
test_expect_success 'lstopo --input shows the machine file'\''s Latency and Bandwidth on every node' '
	run 0 "$ARCHSCOPE" machine export --hwloc topo.xml -m "$M"
	contains "$TMP/err" "wrote .topo.xml.: Latency and Bandwidth of"
	run 0 lstopo-no-graphics --input topo.xml --memattrs
	nodes=$(lstopo-no-graphics --input topo.xml --only NUMANode | wc -l)
	lat=$(python3 -c "import yaml,sys; print(round(yaml.safe_load(open(sys.argv[1]))[\"archscope\"][\"probes\"][\"caches\"][\"memory_latency\"][\"value\"]))" "$M" 2>/dev/null) ||
		lat=$(sed -n "/^      memory_latency:/,/value:/s/ *value: *//p" "$M" | head -n 1 | python3 -c "import sys; print(round(float(sys.stdin.read())))")
	[ "$(sed -n "/name .Latency./,/^Memory/p" "$TMP/out" | grep -c "NUMANode L#[0-9]* = $lat from cpuset")" = "$nodes" ] ||
		fail "Latency $lat ns not on each of $nodes nodes"
	[ "$(sed -n "/name .Bandwidth./,/^Memory/p" "$TMP/out" | grep -c "NUMANode L#[0-9]* = [1-9][0-9]* from cpuset")" = "$nodes" ] ||
		fail "no Bandwidth on each of $nodes nodes"
'
test_expect_success 'the measured cache sizes beside hwloc'\''s, as info attributes' '
	run 0 "$ARCHSCOPE" machine export --hwloc topo.xml -m kvm-xeon-6-207
	grep -q "name=\"ArchscopeMeasuredSize\" value=\"20971520\"" topo.xml || fail "no measured L3 size (20971520) in the XML"
	grep -q "name=\"ArchscopeMeasuredLineSize\" value=\"64\"" topo.xml || fail "no measured line in the XML"
	run 0 lstopo-no-graphics --input topo.xml -v
	contains "$TMP/out" "ArchscopeMeasuredSize=20971520"
'
test_expect_success 'bad input: no -m, an unknown machine, an unwritable file' '
	run 2 "$ARCHSCOPE" machine export --hwloc topo.xml
	run 2 "$ARCHSCOPE" machine export --hwloc topo.xml -m no-such-machine
	contains "$TMP/err" "no machines named"
	run 1 "$ARCHSCOPE" machine export --hwloc /nonexistent-dir/t.xml -m kvm-xeon-6-207
	contains "$TMP/err" "/nonexistent-dir/t.xml"
'
test_done
