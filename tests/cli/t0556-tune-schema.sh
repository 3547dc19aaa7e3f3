#!/usr/bin/env bash
# tune's results match their descriptions (machine/result-tune.h, issue 48): gemm's and stencil's
# --json, cheap runs as in t0200 and t0202, checked by 'machine schema --check' against the views
# "tune gemm" and "tune stencil" of the command "tune"; an altered document is refused with
# the path of the difference (exit 1).
. "$ROOT/tests/cli/lib.sh"
fx=$ROOT/tests/fixtures/tune

test_expect_success GCC 'tune gemm --short matches "tune gemm", not "tune stencil"' '
	run 0 "$ARCHSCOPE" tune gemm -m "$fx/zen5-published.yaml" --short --step 13 --max-size 26 --reps 1 --json -q &&
	cp "$TMP/out" "$TMP/gemm.json" &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/gemm.json" "tune gemm" &&
	contains "$TMP/out" "tune gemm results as described" &&
	run 1 "$ARCHSCOPE" machine schema --check "$TMP/gemm.json" "tune stencil"
'
test_expect_success GCC 'a gemm document with a key of the wrong kind is refused by its path' '
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d[\"results\"][\"check\"][\"peak_n\"] = \"32\"; json.dump(d, open(sys.argv[2], \"w\"))" \
		"$TMP/gemm.json" "$TMP/gemm-bad.json" &&
	run 1 "$ARCHSCOPE" machine schema --check "$TMP/gemm-bad.json" "tune gemm" &&
	contains "$TMP/err" "check.peak_n: a value where an integer is described"
'
test_expect_success LIBCLANG 'tune stencil --short matches "tune stencil", not "tune gemm"' '
	run 0 "$ARCHSCOPE" tune stencil -m "$fx/zen5-published.yaml" --short --reps 1 --json -q &&
	cp "$TMP/out" "$TMP/stencil.json" &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/stencil.json" "tune stencil" &&
	contains "$TMP/out" "tune stencil results as described" &&
	run 1 "$ARCHSCOPE" machine schema --check "$TMP/stencil.json" "tune gemm"
'
test_expect_success LIBCLANG 'a stencil document with a key the description does not name is refused by its path' '
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d[\"results\"][\"levels\"][0][\"misses\"] = 1; json.dump(d, open(sys.argv[2], \"w\"))" \
		"$TMP/stencil.json" "$TMP/stencil-bad.json" &&
	run 1 "$ARCHSCOPE" machine schema --check "$TMP/stencil-bad.json" "tune stencil" &&
	contains "$TMP/err" "levels\[0\].misses: a key the description does not name"
'
test_done
