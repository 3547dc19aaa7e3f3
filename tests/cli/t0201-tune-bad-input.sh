# archscope tune: bad input gets a clear error and the right exit code (issue 30 item 6): a
# machine file without registers or without L1, a CPU without the ISA asked for, a missing
# compiler, and usage errors.
. "$(dirname "$0")/lib.sh"
root=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
fx="$root/tests/fixtures/tune"

test_expect_success 'a machine file without a register count' '
	run 2 "$ARCHSCOPE" tune gemm -m "$fx/no-registers.yaml" --short
	contains "$TMP/err" "has no register count"
	contains "$TMP/err" "--registers N"
'
test_expect_success 'a machine file without L1' '
	run 2 "$ARCHSCOPE" tune gemm -m "$fx/no-l1.yaml" --short
	contains "$TMP/err" "has no L1 cache"
'
test_expect_success '--registers stands in for the probe, but still not for the L1' '
	run 2 "$ARCHSCOPE" tune gemm -m "$fx/no-l1.yaml" --registers 16 --short
	contains "$TMP/err" "has no L1 cache"
'
# a CPU without the ISA asked for (ARCHSCOPE_TUNE_CPU_FLAGS replaces what the CPU reports)
test_expect_success '--isa avx512 on a CPU without avx512f' '
	ARCHSCOPE_TUNE_CPU_FLAGS="sse2" run 1 "$ARCHSCOPE" tune gemm -m "$fx/zen5-published.yaml" --isa avx512 --short
	contains "$TMP/err" "this CPU cannot run avx512 code (needs avx512f)"
'
test_expect_success '--isa avx2 on a CPU without fma' '
	ARCHSCOPE_TUNE_CPU_FLAGS="sse2 avx2" run 1 "$ARCHSCOPE" tune gemm -m "$fx/zen5-published.yaml" --isa avx2 --short
	contains "$TMP/err" "cannot run avx2 code (needs avx2 fma)"
'
test_expect_success 'a CPU with none of the ISAs' '
	ARCHSCOPE_TUNE_CPU_FLAGS="neon" run 1 "$ARCHSCOPE" tune gemm -m "$fx/zen5-published.yaml" --short
	contains "$TMP/err" "none of the ISAs"
'
test_expect_success 'an unknown --isa' '
	run 2 "$ARCHSCOPE" tune gemm -m "$fx/zen5-published.yaml" --isa mmx
	contains "$TMP/err" "unknown ISA '\''mmx'\''"
'
test_expect_success 'a compiler that is missing' '
	run 1 "$ARCHSCOPE" tune gemm -m "$fx/zen5-published.yaml" --compiler archscope-no-such-cc --short
	contains "$TMP/err" "compiler '\''archscope-no-such-cc'\'' not found"
'
test_expect_success 'tune without a kernel' '
	run 2 "$ARCHSCOPE" tune -m "$fx/zen5-published.yaml"
	contains "$TMP/err" "which kernel"
'
test_expect_success 'tune with an unknown kernel' '
	run 2 "$ARCHSCOPE" tune fft -m "$fx/zen5-published.yaml"
	contains "$TMP/err" "'\''fft'\'' is not a tune kernel (gemm, stencil)"
'
test_expect_success 'a missing machine file' '
	run 2 "$ARCHSCOPE" tune gemm -m "$TMP/none.yaml"
	contains "$TMP/err" "none.yaml"
'
test_expect_success '--registers 2' '
	run 2 "$ARCHSCOPE" tune gemm -m "$fx/zen5-published.yaml" --registers 2
	contains "$TMP/err" "registers"
'
test_done
