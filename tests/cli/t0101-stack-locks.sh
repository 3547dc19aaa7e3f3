# stack names the right delimiter of the lock examples (examples/stack/): mutex -> yielding
# (mutex), pthread spin lock -> spinning (pthread_spin), hand-written spin lock -> spinning
# (user_spin, found by sampling), and the components sum to N; the delimiter is checked when the
# machine is not loaded by other programs (tests/fixtures/scale/check-delim.py says why).
. "$(dirname "$0")/lib.sh"
# the system python when there is one: a version manager's shim can take seconds to start
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
EX=$(dirname "$ARCHSCOPE")
[ -x "$EX/stack-mutex" ] || skip "needs the stack examples beside $ARCHSCOPE"
check_delim() { "$PY" "$ROOT/tests/fixtures/scale/check-delim.py" "$TMP/out" "$@" || fail "$1: wrong stack (JSON in $TMP/out)"; }
test_expect_success 'mutex: yielding (mutex)' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- "$EX/stack-mutex" "{T}" 400
	check_delim mutex yielding mutex
'
test_expect_success 'pthread spin lock: spinning (pthread_spin)' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- "$EX/stack-pthread-spin" "{T}" 400
	check_delim pthread-spin spinning pthread_spin
'
# 3000 units (~0.2 s, ~100 samples): at 600 (40 ms, ~20 samples) the sampled share of spinning
# is too coarse (one ASan run read 0.50 of the ~1.0 spun, and work_inflation became dominant).
# Where spinning was seen, the spinning code is a site, placed in user-spin.c by its debug information.
test_expect_success 'hand-written spin lock: spinning (user_spin, sampled), its site in user-spin.c' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- "$EX/stack-user-spin" "{T}" 3000
	json_get "\"sampling\" not in d[\"results\"]" | grep -qx True ||
		skip "task-clock sampling refused here: $(json_get "d[\"results\"][\"sampling\"]")"
	check_delim user-spin spinning user_spin
	json_get "[s[\"where\"] for s in d[\"results\"][\"runs\"][0][\"sites\"] if s[\"primitive\"] == \"user_spin\"] or
		  ([\"user-spin.c: none\"] if d[\"results\"][\"runs\"][0][\"by_primitive\"][\"user_spin\"] < 0.05 else [])" |
		grep -q "user-spin.c:" || fail "user-spin: no spin site in user-spin.c"
'
test_done
