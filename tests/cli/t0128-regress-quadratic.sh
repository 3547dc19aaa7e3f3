# regress names the right shape for quadratic growth (page faults of a program allocating
# N² × 0.4 MB) and draws a plot per event with the runs and the best fit.
. "$(dirname "$0")/lib.sh"
command -v perl >/dev/null || skip "needs perl"
run 0 "$ARCHSCOPE" regress -q --json -o "$TMP/j.json" --param N=1,2,3,4,5 -r 2 -e page-faults --plot "$TMP/plots" -- \
	perl -e '$x = "a" x ({N} * {N} * 400000)'
test_expect_success 'quadratic growth of page faults is named quadratic' '
	python3 "$ROOT/tests/fixtures/measure/regress-check.py" "$TMP/j.json" quadratic >/dev/null || fail "quadratic growth not named quadratic"
'
# a plot per fitted event: the runs and the best fit
test_expect_success 'a plot per fitted event: the runs and the quadratic fit' '
	command -v gnuplot >/dev/null || skip "no gnuplot"
	[ -s "$TMP/plots/regress-page-faults.svg" ] || fail "no plot for page-faults"
	grep -q "x\*\*2" "$TMP/plots/regress-page-faults.gp" || fail "the plot does not draw the quadratic fit"
'
test_expect_success 'the plot data is written' '
	[ -s "$TMP/plots/regress-page-faults.dat" ] || fail "no plot data for page-faults"
'
test_done
