# archscope tune gemm for people: the text names the blocks, the reasoning and the units, on SSE2
# (every x86-64 has it) so the answer is known: 16 narrow registers of 2 doubles -> 8 x 2; 48 KiB
# -> 74 with room for lines -> 72 (tests/fixtures/tune/README.md). One small compile.
. "$(dirname "$0")/lib.sh"
require GCC
root=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
zen5="$root/tests/fixtures/tune/zen5-published.yaml"

run 0 "$ARCHSCOPE" tune gemm -m "$zen5" --isa sse2 --short --max-size 16 --reps 1 -q
contains "$TMP/out" "predicted best n  *72"
contains "$TMP/out" "register block (elements)  *8 x 2 x 1"
contains "$TMP/out" "L1 block  *72 x 72 x 1"
contains "$TMP/out" "room for the strided operand"
contains "$TMP/out" "GFLOP/s"
contains "$TMP/out" "peak within one step"
[ ! -s "$TMP/err" ] || fail "-q printed on stderr"
exit 0
