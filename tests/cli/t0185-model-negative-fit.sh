# A negative fitted ECM transfer cost does not pass silently (issue 29): model warns, naming the
# level and both costs, also with --quiet; the machine file's own rates give no warning.
. "$(dirname "$0")/lib.sh"
M="$ROOT/machines/kvm-xeon-6-207.yaml" # its L3 fit has a negative evict cost (recorded benchmarks)
test_expect_success LIBCLANG 'a negative fitted cost: a warning naming the level, also with --quiet' '
	run 0 "$ARCHSCOPE" model "$ROOT/kernels/copy.c" -m "$M" -D N 100000 -p ECM --quiet
	contains "$TMP/err" "archscope: warning: the fitted ECM cost of L3 is negative"
'
test_expect_success LIBCLANG 'the machine file'\''s own rates: no warning' '
	run 0 "$ARCHSCOPE" model "$ROOT/kernels/copy.c" -m "$M" -D N 100000 -p ECM --ecm-rates machine
	! grep -q "warning" "$TMP/err" || fail "a warning without a fit"
'
test_done
