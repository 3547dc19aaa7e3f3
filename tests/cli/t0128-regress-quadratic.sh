# regress names the right shape for quadratic growth (page faults of a program allocating
# N² × 0.4 MB) and draws a plot per event with the runs and the best fit.
. "$(dirname "$0")/lib.sh"
command -v perl >/dev/null || skip "needs perl"
cat >"$TMP/check.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["results"]
want = sys.argv[2]
ev = {e["name"]: e for e in d["events"]}
pf = ev["page-faults"]
for k in ("name", "best", "r2", "fits"):
    assert k in pf, k
assert set(pf["fits"]) == {"constant", "linear", "quadratic", "exponential", "power"}, pf["fits"].keys()
for f in pf["fits"].values():
    assert set(f) >= {"r2", "aicc", "coef"}, f
assert pf["best"] == want, (pf["best"], pf["fits"])
assert pf["r2"] > 0.999, pf["r2"]
xs = sorted({p[0] for p in pf["points"]})
assert xs == [float(v) for v in d["values"]], xs        # the parameter's values, not run indices
assert len(pf["points"]) == 2 * len(xs)
lin = pf["fits"]["linear"]["coef"]
print(lin[1] if want == "linear" else pf["fits"]["quadratic"]["coef"][2])
PY
run 0 "$ARCHSCOPE" regress -q --json --param N=1,2,3,4,5 -r 2 -e page-faults --plot "$TMP/plots" -- \
	perl -e '$x = "a" x ({N} * {N} * 400000)'
python3 "$TMP/check.py" "$TMP/out" quadratic >/dev/null || fail "quadratic growth not named quadratic"
# a plot per fitted event: the runs and the best fit
if command -v gnuplot >/dev/null; then
	[ -s "$TMP/plots/regress-page-faults.svg" ] || fail "no plot for page-faults"
	grep -q 'x\*\*2' "$TMP/plots/regress-page-faults.gp" || fail "the plot does not draw the quadratic fit"
fi
[ -s "$TMP/plots/regress-page-faults.dat" ] || fail "no plot data for page-faults"
exit 0
