# memhist --plot DIR: stacked bars by data source.
. "$(dirname "$0")/lib.sh"
run 0 "$ARCHSCOPE" memhist -q --plot "$TMP/plot" --mode cost --from "$ROOT/tests/fixtures/measure/memhist-intel-perf-script.txt"
[ -s "$TMP/plot/memhist.gp" ] && [ -s "$TMP/plot/memhist.dat" ] || fail "no memhist.gp or .dat"
[ "$(wc -l <"$TMP/plot/memhist.dat")" -eq 11 ] || fail "11 log2 bins in memhist.dat"
if command -v gnuplot >/dev/null; then
	[ -s "$TMP/plot/memhist.svg" ] && [ -s "$TMP/plot/memhist.png" ] || fail "gnuplot drew nothing"
fi
exit 0
