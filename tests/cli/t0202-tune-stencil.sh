# archscope tune stencil --short: the block comes from the layer conditions (the row condition
# fails in L1 at the quick grid and holds for the block), the blocked sweep gives the naive one's
# numbers (else exit 1), both are timed; bad input as for gemm.
. "$(dirname "$0")/lib.sh"
require LIBCLANG
root=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
fx="$root/tests/fixtures/tune"

test_expect_success 'the JSON: the block from the L1 layer condition, fewer misses blocked, both timed' '
	run 0 "$ARCHSCOPE" tune stencil -m "$fx/zen5-published.yaml" --short --json
	python3 - "$TMP/out" <<-\PY || fail "JSON checks"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]
	def need(ok, what):
	    if not ok:
	        sys.exit("FAIL: " + what)
	l1 = r["levels"][0]
	need(l1["level"] == "L1" and l1["size_bytes"] == 49152, "L1 from the file")
	need(r["blocked_for"] == "L1", "quick grid: blocked for L1")
	# the row condition holds in L1 up to N = width_limit; the block is the inner loop of N - 2
	need(256 <= r["block"] == l1["width_limit"] - 2 < r["grid"]["cols"], "block from the L1 condition")
	need(l1["blocked_misses"] < l1["naive_misses"], "fewer L1 misses blocked")
	need(all(x["blocked_misses"] <= x["naive_misses"] for x in r["levels"]), "never more misses blocked")
	need(r["naive"]["mlups"] > 0 and r["blocked"]["mlups"] > 0 and r["speedup"] > 0, "timings")
	need(len(r["reasoning"]) >= 3, "reasoning")
	PY
'
test_expect_success 'text: the level blocked for and the unit' '
	run 0 "$ARCHSCOPE" tune stencil -m "$fx/zen5-published.yaml" --short --reps 1 -q
	contains "$TMP/out" "blocked for  *L1"
	contains "$TMP/out" "MLUP/s"
'
test_expect_success 'no machine file: exit 2' '
	run 2 "$ARCHSCOPE" tune stencil
	contains "$TMP/err" "no machine file given"
'
test_done
