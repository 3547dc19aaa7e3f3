# archscope tune gemm --short on a synthetic Zen 5 file: the blocks follow from the file and the
# ISA (JSON names of issue 30), the generated kernel matches the triple loop at every size, every
# median is a positive GFLOP/s, --plot marks the predicted size (text: t0203).
. "$(dirname "$0")/lib.sh"
require GCC
root=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
zen5="$root/tests/fixtures/tune/zen5-published.yaml"

# sizes 8, 13, 26, ... 91: odd sizes, so the edge code runs (rows left after whole vectors and
# after whole register blocks, columns left after whole blocks) and is checked too
run 0 "$ARCHSCOPE" tune gemm -m "$zen5" --short --step 13 --max-size 91 --json --plot "$TMP/plot"
cp "$TMP/out" "$TMP/gemm.json"
# one python run for every JSON check (python starts slowly on a loaded machine)
test_expect_success 'the JSON: blocks from the file and the ISA, correct results and GFLOP/s at every size' '
	python3 - "$TMP/gemm.json" <<-\PY || fail "JSON checks"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]
	def need(ok, what):
	    if not ok:
	        sys.exit("FAIL: " + what)
	rb, lb = r["register_block"], r["l1_block"]
	need(rb["k"] == 1 and lb["k"] == 1, "k = 1 blocks")
	need(rb["m"] % r["inputs"]["vector_doubles"] == 0, "register block m is whole vectors")
	need(lb["m"] % rb["m"] == 0 and lb["n"] % rb["n"] == 0, "L1 block is a multiple of the register block")
	need(r["predicted_best_n"] == lb["m"], "predicted best n is the L1 block")
	need(r["registers_used"] <= r["inputs"]["registers"], "register block fits the registers")
	s = r["sizes"]
	need([x["n"] for x in s] == [8, 13, 26, 39, 52, 65, 78, 91], "sizes 8, then multiples of the step")
	need(all(x["gflops_tuned"] > 0 and x["error_tuned"] < 1e-10 for x in s), "tuned GFLOP/s and result")
	if r["openblas"] is not None:
	    need(all(x["gflops_openblas"] > 0 and x["error_openblas"] < 1e-10 for x in s), "OpenBLAS GFLOP/s and result")
	need(r["check"]["peak_n"] in [x["n"] for x in s], "peak is a measured size")
	need(len(r["reasoning"]) >= 4, "reasoning")
	PY
'
test_expect_success '--plot draws the curves and marks the predicted best n' '
	command -v gnuplot >/dev/null || skip "no gnuplot in PATH"
	[ -s "$TMP/plot/tune-gemm.svg" ] || fail "no plot"
	contains "$TMP/plot/tune-gemm.gp" "predicted best n = "
'
test_done
