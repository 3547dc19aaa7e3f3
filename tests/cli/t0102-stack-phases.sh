# stack names the right delimiter of the phase examples (examples/stack/): a barrier with a
# rotating slow thread -> yielding (barrier), uneven shares -> imbalance, independent work and a
# memory-bound stream -> no wait tier 0 sees; the components sum to N. The delimiter is checked
# when the machine is not loaded by other programs (tests/fixtures/scale/check-delim.py says why).
. "$(dirname "$0")/lib.sh"
# the system python when there is one: a version manager's shim can take seconds to start
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
EX=$(dirname "$ARCHSCOPE")
[ -x "$EX/stack-barrier" ] || skip "needs the stack examples beside $ARCHSCOPE"
check_delim() { "$PY" "$ROOT/tests/fixtures/scale/check-delim.py" "$TMP/out" "$@" || fail "$1: wrong stack (JSON in $TMP/out)"; }
test_expect_success 'a barrier with a rotating slow thread: yielding (barrier)' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- "$EX/stack-barrier" "{T}" 400
	check_delim barrier yielding barrier
'
test_expect_success 'uneven shares: imbalance' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- "$EX/stack-end-imbalance" "{T}" 400
	check_delim end-imbalance imbalance -
'
test_expect_success 'independent work: no wait tier 0 sees' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- "$EX/stack-parallel" "{T}" 400
	check_delim parallel none -
'
test_expect_success 'a memory-bound stream: no wait tier 0 sees' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- "$EX/stack-memory" "{T}" 300 8
	check_delim memory none -
'
test_done
