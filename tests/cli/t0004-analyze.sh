# analyze: each method on a synthetic curve, and clear errors for bad input.
. "$(dirname "$0")/lib.sh"
printf 'threads,time\n1,1.0\n2,1.01\n3,0.99\n4,1.02\n5,2.1\n6,2.2\n7,2.9\n8,3.1\n' >"$TMP/ctx.csv"
test_expect_success 'first-step and biggest-step find the step at 4' '
	run 0 "$ARCHSCOPE" analyze --method first-step --json "$TMP/ctx.csv"
	[ "$(json_get "d[\"results\"][\"answer\"][\"value\"]")" = 4.0 ] || fail "first-step answer $(json_get "d[\"results\"][\"answer\"][\"value\"]")"
	run 0 "$ARCHSCOPE" analyze -m biggest-step "$TMP/ctx.csv"
	contains "$TMP/out" "answer  *4 (confidence"
'
test_expect_success 'monotone, scaled-step and levels run' '
	run 0 "$ARCHSCOPE" analyze -m monotone "$TMP/ctx.csv"
	run 0 "$ARCHSCOPE" analyze -m scaled-step --json "$TMP/ctx.csv"
	run 0 "$ARCHSCOPE" analyze -m levels "$TMP/ctx.csv"
'
test_expect_success 'qt: at least two clusters' '
	run 0 "$ARCHSCOPE" analyze -m qt --json "$TMP/ctx.csv"
	[ "$(json_get "len(d[\"results\"][\"clusters\"])")" -ge 2 ] || fail "qt clusters"
'
# text and JSON come from one renderer: the same numbers, units on those the text prints
test_expect_success 'qt text: the clusters with their unit and the answer' '
	run 0 "$ARCHSCOPE" analyze -m qt --unit B "$TMP/ctx.csv"
	contains "$TMP/out" "^clusters"
	contains "$TMP/out" " 1 B "
	contains "$TMP/out" "answer  *[0-9]* clusters (confidence"
'
test_expect_success '--method= and an abbreviated --js: x_after_step' '
	run 0 "$ARCHSCOPE" analyze --method=first-step --js "$TMP/ctx.csv"
	[ "$(json_get "d[\"results\"][\"x_after_step\"]")" = 5.0 ] || fail "x_after_step"
'
# bad options name the option and what it takes
test_expect_success 'bad options name the option and what it takes' '
	run 2 "$ARCHSCOPE" analyze -m qt --diameter 0 "$TMP/ctx.csv"
	contains "$TMP/err" "diameter must be above 0 and at most 10"
	run 2 "$ARCHSCOPE" analyze --jsn -m qt "$TMP/ctx.csv"
	contains "$TMP/err" "did you mean '\''--json'\''"
	run 2 "$ARCHSCOPE" analyze -m qt
	contains "$TMP/err" "a CSV file is required"
'
test_expect_success 'a value that is not a number names its line' '
	printf "x,y\n1,2\n2,abc\n" >"$TMP/bad.csv"
	run 2 "$ARCHSCOPE" analyze -m qt "$TMP/bad.csv"
	contains "$TMP/err" "line 3"
'
test_expect_success 'a missing file, a binary file' '
	run 2 "$ARCHSCOPE" analyze -m qt "$TMP/none.csv"
	contains "$TMP/err" "cannot open"
	head -c 2000 /dev/urandom >"$TMP/bin.csv"
	run 2 "$ARCHSCOPE" analyze -m qt "$TMP/bin.csv"
'
test_expect_success 'an unknown method, no method' '
	run 2 "$ARCHSCOPE" analyze -m nosuch "$TMP/ctx.csv"
	contains "$TMP/err" "unknown method"
	run 2 "$ARCHSCOPE" analyze "$TMP/ctx.csv"
'
test_expect_success 'x must increase' '
	printf "x,y\n2,1\n1,2\n" >"$TMP/order.csv"
	run 2 "$ARCHSCOPE" analyze -m qt "$TMP/order.csv"
	contains "$TMP/err" "x must increase"
'
test_done
