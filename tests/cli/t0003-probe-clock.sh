# probe clock: a measured clock with unit and method, the TSC beside it; bad groups and CPUs.
. "$(dirname "$0")/lib.sh"
test_expect_success 'probe clock --json: a plausible clock in GHz with its method' '
	run 0 "$ARCHSCOPE" probe clock --quick --json
	python3 -m json.tool "$TMP/out" >/dev/null || fail "not JSON"
	ghz=$(json_get "d[\"results\"][\"clock\"][\"value\"]")
	[ "$(json_get "d[\"results\"][\"clock\"][\"unit\"]")" = GHz ] || fail "unit"
	python3 -c "import sys; g=float(\"$ghz\"); sys.exit(0 if 0.1 < g < 10 else 1)" || fail "clock $ghz GHz is not plausible"
	[ -n "$(json_get "d[\"results\"][\"clock\"][\"method\"]")" ] || fail "method missing"
'
test_expect_success 'probe clock text: the clock in GHz and its method' '
	run 0 "$ARCHSCOPE" probe clock --quick
	contains "$TMP/out" "core clock .* GHz"
	contains "$TMP/out" "method"
'
test_expect_success 'an unknown probe group' '
	run 2 "$ARCHSCOPE" probe nosuchgroup
	contains "$TMP/err" "unknown probe group '\''nosuchgroup'\''"
'
test_expect_success 'a CPU not in the allowed set' '
	run 2 "$ARCHSCOPE" probe --cpu 1023 clock
	contains "$TMP/err" "not in the allowed set"
'
test_expect_success 'a seed that is not a number' '
	run 2 "$ARCHSCOPE" probe --seed abc clock
'
test_done
