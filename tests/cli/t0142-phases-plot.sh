# phases --plot DIR: the footprint with its fitted segments, and the counters per phase.
. "$(dirname "$0")/lib.sh"
RAMP="$(dirname "$ARCHSCOPE")/examples/ramp-compute"
run 0 "$ARCHSCOPE" phases -q --plot "$TMP/plot" -e task-clock,page-faults -- "$RAMP" 16 0.2 0.2
for f in phases.gp phases.dat phases-events.gp phases-events.dat; do
	[ -s "$TMP/plot/$f" ] || fail "no $f"
done
contains "$TMP/plot/phases.gp" "set arrow 1"
[ "$(wc -l <"$TMP/plot/phases-events.dat")" -eq 2 ] || fail "two phases in phases-events.dat"
if command -v gnuplot >/dev/null; then
	[ -s "$TMP/plot/phases.svg" ] && [ -s "$TMP/plot/phases-events.png" ] || fail "gnuplot drew nothing"
fi
exit 0
