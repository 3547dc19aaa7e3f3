# The results of model, analyze and topology round-trip through their descriptions
# (machine/result-model.h, result-analyze.h, result-topology.h; issue 48 item 4): every golden
# record's results (tests/golden/expected/, model-* against "model", analyze-* against "analyze")
# pass `machine schema --check`, and so do topology --json on this machine and on every recorded
# hwloc topology, a model run with -p Benchmark, and a model whose in-core part cannot run. A
# record with one key changed fails, naming that key's path. The renderers spell no results key:
# each comes from the description (MO_KEY, AR_KEY, TR_KEY).
. "$(dirname "$0")/lib.sh"
KVM="$ROOT/machines/kvm-xeon-6-207.yaml"
SNB="$ROOT/tests/fixtures/machines/kerncraft-snb-e5-2680.yml"

# check_all NAME PREFIX: every golden record PREFIX-*.json that has results (a case that exits 2
# has none) passes the description NAME; prints how many were checked
check_all() {
	local n=0 f
	for f in "$ROOT"/tests/golden/expected/"$2"-*.json; do
		grep -q '"results"' "$f" || continue
		"$ARCHSCOPE" machine schema --check "$f" "$1" >/dev/null 2>"$TMP/err" || { cat "$TMP/err"; fail "$f"; }
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || fail "no golden $2 records"
	echo "$n $2 records as described"
}

test_expect_success 'the renderers of model, analyze and topology spell no results key' '
	! grep -nE "emit_(string|int|number|bool|null|size|cpulist|answer|answer_begin|object_begin|list_begin|array_begin|table_begin|stat|json)\(e, \"" \
		"$ROOT"/src/cli/cmd-model*.c "$ROOT"/src/cli/cmd-analyze.c "$ROOT"/src/cli/cmd-topology.c
'

test_expect_success 'every golden model record is what "model" describes' '
	check_all model model
'

test_expect_success 'every golden analyze record is what "analyze" describes' '
	check_all analyze analyze
'

test_expect_success 'a record with a transfer that is not a number names its path' '
	python3 - "$ROOT/tests/golden/expected/model-jacobi-sweep-snb.json" "$TMP/bad.json" <<-\PY &&
	import json, sys
	d = json.load(open(sys.argv[1]))
	d["results"]["sizes"][2]["ecm_data"]["L2"] = "6"
	json.dump(d, open(sys.argv[2], "w"))
	PY
	run 1 "$ARCHSCOPE" machine schema --check "$TMP/bad.json" model &&
	contains "$TMP/err" "sizes\[2\].ecm_data.L2: not a number"
'

test_expect_success 'a model whose section holds an error beside other keys fails' '
	python3 - "$ROOT/tests/golden/expected/model-copy-snb.json" "$TMP/bad.json" <<-\PY &&
	import json, sys
	d = json.load(open(sys.argv[1]))
	d["results"]["roofline"]["error"] = "no bandwidth"
	json.dump(d, open(sys.argv[2], "w"))
	PY
	run 1 "$ARCHSCOPE" machine schema --check "$TMP/bad.json" model &&
	contains "$TMP/err" "roofline.error: beside other keys"
'

test_expect_success 'topology --json on this machine is what "topology" describes' '
	run 0 "$ARCHSCOPE" topology --json &&
	cp "$TMP/out" "$TMP/topology.json" &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/topology.json" topology
'

test_expect_success 'topology --json of every recorded hwloc topology is what "topology" describes' '
	for x in "$ROOT"/tests/fixtures/topo/*.xml; do
		HWLOC_XMLFILE=$x run 0 "$ARCHSCOPE" topology --json &&
		cp "$TMP/out" "$TMP/topology.json" &&
		run 0 "$ARCHSCOPE" machine schema --check "$TMP/topology.json" topology || exit 1
	done
'

test_expect_success LIBCLANG,GCC 'model -p Benchmark (with ECM and RooflineASM) is what "model" describes' '
	run 0 "$ARCHSCOPE" model "$ROOT/kernels/stream-triad.c" -m "$KVM" -D N 4000 -p ECM -p RooflineASM -p Benchmark \
		--bench-seconds 0.01 --bench-reps 2 --json &&
	cp "$TMP/out" "$TMP/bench.json" &&
	json_get "d[\"results\"][\"benchmark\"][\"conditions\"][\"attempts\"]" >/dev/null &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/bench.json" model
'

test_expect_success LIBCLANG,GCC 'a benchmark sweep without counters is what "model" describes' '
	run 0 "$ARCHSCOPE" model "$ROOT/kernels/stream-triad.c" -m "$KVM" -D N 1000:2000:1000 -p Benchmark \
		--no-counters --bench-seconds 0.01 --bench-reps 2 --json &&
	cp "$TMP/out" "$TMP/sweep.json" &&
	json_get "d[\"results\"][\"sizes\"][1][\"benchmark\"][\"counters\"][\"reason\"]" >/dev/null &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/sweep.json" model
'

test_expect_success LIBCLANG 'a model whose in-core part cannot run (its sections say why) is what "model" describes' '
	run 0 "$ARCHSCOPE" model "$ROOT/kernels/stream-triad.c" -m "$SNB" -D N 1000 -p LC -p ECM -p RooflineASM \
		--compiler no-such-cc --json &&
	cp "$TMP/out" "$TMP/noic.json" &&
	json_get "d[\"results\"][\"ecm\"][\"error\"]" >/dev/null &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/noic.json" model
'

test_done
