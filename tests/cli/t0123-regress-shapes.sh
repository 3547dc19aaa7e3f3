# regress names the right shape for linear growth of a deterministic event (page faults of a
# program allocating N MB), fits on the parameter's values, JSON names of the issue; usage
# errors. Quadratic growth and the plots: t0128.
. "$(dirname "$0")/lib.sh"
command -v perl >/dev/null || skip "needs perl"
run 0 "$ARCHSCOPE" regress -q --json --param N=1,2,4,8 -r 2 -e page-faults -- \
	perl -e '$x = "a" x ({N} * 1000000)'
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
slope=$(python3 "$TMP/check.py" "$TMP/out" linear) || fail "linear growth not named linear"
# about 2 × 244 faults per MB (perl builds the string and copies it): between 200 and 800 per MB
python3 -c "import sys; s=float('$slope'); sys.exit(0 if 200 < s < 800 else 1)" || fail "slope $slope faults/MB"
run 2 "$ARCHSCOPE" regress --param N=1,2 -- true
contains "$TMP/err" "{N}"
run 2 "$ARCHSCOPE" regress --param N=1 -- echo {N}
run 2 "$ARCHSCOPE" regress --param N=1,x -- echo {N}
run 2 "$ARCHSCOPE" regress -- echo {N}
exit 0
