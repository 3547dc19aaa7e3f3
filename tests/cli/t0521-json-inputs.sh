# JSON inputs and impossible values (issue 52): every JSON reader refuses a key given twice (one
# reader, report/output.h: output_json_parse), naming the file, line and column; analyze refuses a
# malformed first row instead of skipping it as a header; report --from refuses members of the
# wrong kind; compare refuses negative and absurd values and an -e event neither file holds;
# probe -o --from-raw names the saved file and member it cannot use. All exit 2.
. "$(dirname "$0")/lib.sh"
NUMA=$ROOT/tests/fixtures/numa
MEAS=$ROOT/tests/fixtures/measure
REP=$ROOT/tests/fixtures/report
RAW=$ROOT/tests/fixtures/kvm-xeon-6-207/probe-o

test_expect_success 'numa model --matrix: a key given twice is refused, named with its line' '
	sed "s/\"kernel\": \"load-avx2\"/\"kernel\": \"load-avx2\", \"bandwidth_gbs\": [[1, 1], [1, 1]]/" \
		"$NUMA/matrix-2node.json" >"$TMP/dup.json" &&
	grep -c bandwidth_gbs\" "$TMP/dup.json" | grep -qx 2 &&
	run 2 "$ARCHSCOPE" numa model --matrix "$TMP/dup.json" --flow 0:0:4 &&
	contains "$TMP/err" "cannot read matrix file '\''$TMP/dup.json'\'': not JSON: line 7, column [0-9]*: duplicate object key" &&
	contains "$TMP/err" "give each key once" &&
	! grep -q "1.00" "$TMP/out"
'

test_expect_success 'memhist --from: a JSON line with a key twice is refused, naming the line' '
	{ head -n 2 "$MEAS/memhist-amd.jsonl"; echo "{\"latency_cy\": 5, \"data_src\": 1, \"latency_cy\": 900}"; } >"$TMP/dup.jsonl" &&
	run 2 "$ARCHSCOPE" memhist --from "$TMP/dup.jsonl" &&
	contains "$TMP/err" "cannot read sample file '\''$TMP/dup.jsonl'\'': not JSON: line 3, column [0-9]*: duplicate object key"
'

test_expect_success 'compare, report --from and probe --from-raw: a key twice is refused by the same reader' '
	echo "{\"results\":{\"events\":[{\"name\":\"x\",\"values\":[1,2,3]}]},\"results\":{}}" >"$TMP/dup-stat.json" &&
	run 2 "$ARCHSCOPE" compare "$TMP/dup-stat.json" "$MEAS/compare-b.json" &&
	contains "$TMP/err" "cannot read stat result '\''$TMP/dup-stat.json'\'': not JSON: line 1, column [0-9]*: duplicate object key" &&
	python3 -c "import sys; t = open(sys.argv[1]).read(); print(t.replace(\"{\", \"{\\\"archscope\\\": \\\"x\\\", \", 1))" \
		"$REP/topology.json" >"$TMP/dup-topo.json" &&
	run 2 "$ARCHSCOPE" report -o "$TMP/r.html" --from "$TMP/dup-topo.json" &&
	contains "$TMP/err" "cannot read result .*dup-topo.json'\'': not JSON: line [0-9]*, column [0-9]*: duplicate object key" &&
	mkdir "$TMP/dupraw" && cp "$RAW/benchmarks.json" "$TMP/dupraw/" &&
	python3 -c "import sys; t = open(sys.argv[1]).read(); print(t.replace(\"{\", \"{\\\"cpu\\\": 0, \\\"cpu\\\": 1, \", 1))" \
		"$RAW/probe-results.json" >"$TMP/dupraw/probe-results.json" &&
	run 2 "$ARCHSCOPE" probe -o "$TMP/m.yaml" --from-raw "$TMP/dupraw" &&
	contains "$TMP/err" "cannot read saved results '\''$TMP/dupraw/probe-results.json'\'': not JSON: line 1, column [0-9]*: duplicate object key" &&
	[ ! -e "$TMP/m.yaml" ]
'

test_expect_success 'analyze: a malformed first row is refused, not skipped as a header' '
	printf "1,2x\n2,3\n3,4\n4,5\n" >"$TMP/c1.csv" &&
	run 2 "$ARCHSCOPE" analyze --method monotone "$TMP/c1.csv" &&
	contains "$TMP/err" "c1.csv'\'': line 1: expected two decimal numbers" &&
	printf "16;\n2,3\n3,4\n4,5\n" >"$TMP/c2.csv" &&
	run 2 "$ARCHSCOPE" analyze --method monotone "$TMP/c2.csv" &&
	contains "$TMP/err" "c2.csv'\'': line 1" &&
	printf "size_bytes,latency_ns\n1,2\n2,3\n3,4\n" >"$TMP/c3.csv" &&
	run 0 "$ARCHSCOPE" analyze --method monotone "$TMP/c3.csv"
'

test_expect_success 'report --from: members of the wrong kind are refused, naming the member and the kind' '
	python3 - "$REP/probe.json" "$TMP" <<-\PY &&
	import json, sys
	d = json.load(open(sys.argv[1]))
	a = json.loads(json.dumps(d)); a["results"]["clock"] = 2.5
	json.dump(a, open(sys.argv[2] + "/clock-number.json", "w"))
	b = json.loads(json.dumps(d)); b["results"]["clock"]["confidence"] = "high"
	json.dump(b, open(sys.argv[2] + "/conf-string.json", "w"))
	c = json.loads(json.dumps(d)); c["machine"]["loadavg"] = "busy"
	json.dump(c, open(sys.argv[2] + "/load-string.json", "w"))
	e = json.loads(json.dumps(d)); e["results"]["caches"]["curve"][1]["min_ns"] = "fast"
	json.dump(e, open(sys.argv[2] + "/curve-string.json", "w"))
	PY
	run 2 "$ARCHSCOPE" report -o "$TMP/r.html" --from "$TMP/clock-number.json" &&
	contains "$TMP/err" "clock-number.json'\'': results.clock: 2.5 is not an answer" &&
	! grep -qi "noisy" "$TMP/err" &&
	run 2 "$ARCHSCOPE" report -o "$TMP/r.html" --from "$TMP/conf-string.json" &&
	contains "$TMP/err" "results.clock.confidence: '\''high'\'' is not a number" &&
	run 2 "$ARCHSCOPE" report -o "$TMP/r.html" --from "$TMP/load-string.json" &&
	contains "$TMP/err" "load-string.json'\'': machine.loadavg: a value where a number is described" &&
	run 2 "$ARCHSCOPE" report -o "$TMP/r.html" --from "$TMP/curve-string.json" &&
	contains "$TMP/err" "results.caches.curve\[\].min_ns: .fast. is not a number" &&
	[ ! -e "$TMP/r.html" ] &&
	run 0 "$ARCHSCOPE" report -o "$TMP/r.html" --from "$REP/probe.json"
'

test_expect_success 'compare: negative and absurd values are refused, naming the file and the value' '
	echo "{\"results\":{\"events\":[{\"name\":\"cycles\",\"values\":[100,-5,100]}]}}" >"$TMP/neg.json" &&
	echo "{\"results\":{\"events\":[{\"name\":\"cycles\",\"values\":[100,1e308,100]}]}}" >"$TMP/huge.json" &&
	echo "{\"results\":{\"events\":[{\"name\":\"cycles\",\"values\":[100,101,102]}]}}" >"$TMP/ok.json" &&
	echo "{\"results\":{\"events\":[{\"name\":\"cycles\",\"values\":[100,101,102]}],\"conditions\":{\"loadavg_before\":[-1,0,0]}}}" >"$TMP/cond.json" &&
	run 2 "$ARCHSCOPE" compare "$TMP/neg.json" "$TMP/ok.json" &&
	contains "$TMP/err" "neg.json'\'': results.events\[0\] (cycles): values\[1\] is -5: a count or time is never negative" &&
	run 2 "$ARCHSCOPE" compare "$TMP/ok.json" "$TMP/huge.json" &&
	contains "$TMP/err" "huge.json'\'': results.events\[0\] (cycles): values\[1\] is 1e+308: above 2^64" &&
	run 2 "$ARCHSCOPE" compare "$TMP/cond.json" "$TMP/ok.json" &&
	contains "$TMP/err" "cond.json'\'': results.conditions.loadavg_before\[0\] is -1" &&
	! grep -q "inf" "$TMP/out" &&
	run 0 "$ARCHSCOPE" compare "$TMP/ok.json" "$TMP/ok.json"
'

test_expect_success 'compare -e: an event in neither file is refused, listing what they hold' '
	run 2 "$ARCHSCOPE" compare -e nosuch "$MEAS/compare-a.json" "$MEAS/compare-b.json" &&
	contains "$TMP/err" "-e: '\''nosuch'\'' is in neither" &&
	contains "$TMP/err" "they hold '\''" &&
	[ ! -s "$TMP/out" ] &&
	ev=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[\"results\"][\"events\"][0][\"name\"])" "$MEAS/compare-a.json") &&
	run 0 "$ARCHSCOPE" compare -e "$ev" "$MEAS/compare-a.json" "$MEAS/compare-b.json"
'

test_expect_success 'probe -o --from-raw: an out-of-range or wrong-kind value names the saved file and member' '
	mkdir "$TMP/raw" && cp "$RAW/benchmarks.json" "$TMP/raw/" &&
	python3 - "$RAW/probe-results.json" "$TMP/raw/probe-results.json" <<-\PY &&
	import json, sys
	d = json.load(open(sys.argv[1]))
	d["line"]["value"] = 1e308
	json.dump(d, open(sys.argv[2], "w"))
	PY
	run 2 "$ARCHSCOPE" probe -o "$TMP/m.yaml" --from-raw "$TMP/raw" &&
	contains "$TMP/err" "saved results '\''$TMP/raw/probe-results.json'\'': line.value: 1e+308 is not a measured value" &&
	! grep -q "line 0" "$TMP/err" && [ ! -e "$TMP/m.yaml" ] &&
	python3 - "$RAW/probe-results.json" "$TMP/raw/probe-results.json" <<-\PY &&
	import json, sys
	d = json.load(open(sys.argv[1]))
	d["cpu"] = 1e30
	json.dump(d, open(sys.argv[2], "w"))
	PY
	run 2 "$ARCHSCOPE" probe -o "$TMP/m.yaml" --from-raw "$TMP/raw" &&
	contains "$TMP/err" "probe-results.json'\'': cpu: 1e+30 is not a whole number" &&
	cp "$RAW/probe-results.json" "$TMP/raw/" &&
	echo "{\"kernels\": " >"$TMP/raw/benchmarks.json" &&
	run 2 "$ARCHSCOPE" probe -o "$TMP/m.yaml" --from-raw "$TMP/raw" &&
	contains "$TMP/err" "cannot read saved results '\''$TMP/raw/benchmarks.json'\'': not JSON: line 2" &&
	python3 - "$RAW/benchmarks.json" "$TMP/raw/benchmarks.json" <<-\PY &&
	import json, sys
	d = json.load(open(sys.argv[1]))
	d["ecm"]["transfers"][0]["cy_per_cl"] = "slow"
	json.dump(d, open(sys.argv[2], "w"))
	PY
	run 2 "$ARCHSCOPE" probe -o "$TMP/m.yaml" --from-raw "$TMP/raw" &&
	contains "$TMP/err" "saved results '\''$TMP/raw/benchmarks.json'\'': ecm.transfers\[0\].cy_per_cl is not a number" &&
	python3 - "$RAW/benchmarks.json" "$TMP/raw/benchmarks.json" <<-\PY &&
	import json, sys
	d = json.load(open(sys.argv[1]))
	lv = next(iter(d["measurements"].values())); run = next(iter(lv.values()))
	k = next(iter(run["results"])); run["results"][k][0] = "fast"
	json.dump(d, open(sys.argv[2], "w"))
	PY
	run 2 "$ARCHSCOPE" probe -o "$TMP/m.yaml" --from-raw "$TMP/raw" &&
	contains "$TMP/err" "saved results '\''$TMP/raw/benchmarks.json'\'': benchmarks.measurements\..*: expected a bandwidth" &&
	! grep -q "line 0" "$TMP/err" && [ ! -e "$TMP/m.yaml" ] &&
	cp "$RAW/benchmarks.json" "$TMP/raw/" &&
	run 0 "$ARCHSCOPE" probe -o "$TMP/m.yaml" --from-raw "$TMP/raw"
'

test_done
