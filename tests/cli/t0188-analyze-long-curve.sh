# analyze -m qt and -m levels refuse a curve too long to cluster in bounded time (issue 29: 10^6
# rows ran over 120 s with no word); the step methods, linear in the points, still answer.
. "$(dirname "$0")/lib.sh"
python3 -c '
import sys
with open(sys.argv[1], "w") as f:
    f.write("x,y\n")
    for i in range(200000):
        f.write("%d,%d\n" % (i + 1, 1 + i // 20000))
' "$TMP/long.csv"
test_expect_success '-m qt and -m levels refuse a curve too long to cluster' '
	for m in qt levels; do
		run 2 timeout 10 "$ARCHSCOPE" analyze -m $m "$TMP/long.csv"
		contains "$TMP/err" "clusters at most"
	done
'
test_expect_success '-m biggest-step still answers on it' '
	run 0 timeout 10 "$ARCHSCOPE" analyze -m biggest-step "$TMP/long.csv"
'
# standard input
test_expect_success 'a curve from standard input' '
	run 0 "$ARCHSCOPE" analyze -m first-step - <"$ROOT/tests/fixtures/kvm-xeon-6-207/line.csv"
'
test_done
