# Under mpirun every rank of archscope cluster parses the same options: a bad option, a bad value, a
# stray argument and --help are printed once (by rank 0), not once per rank; the run ends with
# exit status 2 (mpirun's).
. "$(dirname "$0")/lib.sh"
require MPI
. "$ROOT/tests/cli/mpi.sh"

once() { # once WANT ARGS...: 3 ranks, one line naming WANT, exit non-zero
	local want=$1; shift
	local rc=0
	mpi_local 3 "$ARCHSCOPE" cluster "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
	[ "$rc" -ne 0 ] || fail "mpirun exited 0 after a bad option"
	[ "$(grep -c "archscope: error: .*$want" "$TMP/err")" -eq 1 ] || fail "not one line naming $want: $(cat "$TMP/err")"
	[ "$(grep -c "see 'archscope cluster --help'" "$TMP/err")" -eq 1 ] || fail "the hint is not printed once: $(cat "$TMP/err")"
}
test_expect_success 'an unknown option, once' "once \"unknown option '--bogus'\" --bogus"
test_expect_success 'a bad value, once' "once \"--sizes: '0'\" --sizes 0"
test_expect_success 'a stray argument, once' "once \"unexpected argument 'now'\" now"
test_expect_success '--help, once' '
	mpi_local 3 "$ARCHSCOPE" cluster --help >"$TMP/out" 2>"$TMP/err"
	[ "$(grep -c "mpirun -np P" "$TMP/out")" -eq 1 ] || fail "--help printed more than once: $(grep -c "mpirun -np P" "$TMP/out")"
'
test_done
