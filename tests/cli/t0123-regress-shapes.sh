# regress names the right shape for linear growth of a deterministic event (page faults of a
# program allocating N MB), fits on the parameter's values, JSON names of the issue; usage
# errors. Quadratic growth and the plots: t0128.
. "$(dirname "$0")/lib.sh"
command -v perl >/dev/null || skip "needs perl"
test_expect_success 'linear growth of page faults is named linear, with a plausible slope' '
	run 0 "$ARCHSCOPE" regress -q --json -o "$TMP/j.json" --param N=1,2,4,8 -r 2 -e page-faults -- \
		perl -e '\''$x = "a" x ({N} * 1000000)'\''
	slope=$(python3 "$ROOT/tests/fixtures/measure/regress-check.py" "$TMP/j.json" linear) || fail "linear growth not named linear"
	# about 2 × 244 faults per MB (perl builds the string and copies it): between 200 and 800 per MB
	python3 -c "import sys; s=float(\"$slope\"); sys.exit(0 if 200 < s < 800 else 1)" || fail "slope $slope faults/MB"
'
test_expect_success 'a command without {N}' '
	run 2 "$ARCHSCOPE" regress --param N=1,2 -- true
	contains "$TMP/err" "{N}"
'
test_expect_success 'one value, a value that is not a number, no --param: exit 2' '
	run 2 "$ARCHSCOPE" regress --param N=1 -- echo {N}
	run 2 "$ARCHSCOPE" regress --param N=1,x -- echo {N}
	run 2 "$ARCHSCOPE" regress -- echo {N}
'
test_done
