# whatif on an OpenMP loop with imbalance (examples/whatif/openmp-imbalance.c, issue 49 item 2), with
# both runtimes (gcc: libgomp, clang: LLVM libomp): at 2 threads one thread does 3/4 of the work and
# the other waits at the loop's barrier, spinning (OMP_WAIT_POLICY=active), so the runtime's wait
# code is hot in the profile. It is named under "waiting" and never tried as a site, by function or
# by line; the work's function and line are. Shapes only: what holds under any load.
. "$(dirname "$0")/lib.sh"
EX=$(dirname "$ARCHSCOPE")
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
# check FILE WANT [WAITS]: no site in a runtime's wait, the work site named WANT found, every
# waiting row a runtime's wait, and (WAITS = 1) some: libgomp told to spin does, under any load;
# libomp yields its CPU on a machine with more runnable threads than CPUs (this one, loaded), so
# its waits may take no sample
check() {
	"$PY" - "$@" <<'PY' || fail "wrong sites in $1"
import json, re, sys
r = json.load(open(sys.argv[1]))["results"]
sites = [s["site"] for s in r["sites"]]
waits = [w["site"] for w in r["waiting"]]
print("sites", sites, "waiting", [(w["site"], w["samples"]) for w in r["waiting"]])
runtime = re.compile(r"\((libgomp|libomp|libiomp5)[^)]*\)$|sched_yield")
assert not any(runtime.search(s) for s in sites), ("a runtime's wait is a site", sites)
assert any(re.search(sys.argv[2], s) for s in sites), ("the work site is not tried", sites)
assert waits or sys.argv[3:] != ["1"], "the barrier's spinning was not seen"
assert all(runtime.search(w) for w in waits), ("waiting code that is not a runtime's wait", waits)
assert all(0 <= w["share"] <= 1 for w in r["waiting"]), r["waiting"]
PY
}
whatif() { # whatif CC BY: the JSON in $TMP/out, checked against the schema
	OMP_NUM_THREADS=2 OMP_WAIT_POLICY=active KMP_BLOCKTIME=infinite run 0 "$ARCHSCOPE" whatif -q --json --by "$2" --sites 2 \
		--speedups 0.5 --rounds 1 -- "$EX/whatif-openmp-imbalance-$1" 40 &&
	cp "$TMP/out" "$TMP/$1-$2.json" &&
	run 0 "$ARCHSCOPE" machine schema --check "$TMP/$1-$2.json" whatif
}
for cc in gcc clang; do
	P=OPENMP_$(echo $cc | tr a-z A-Z)
	test_expect_success $P "$cc: by function, the runtime's barrier wait is waiting, never a site; work is a site" '
		[ -x "$EX/whatif-openmp-imbalance-'$cc'" ] || fail "whatif-openmp-imbalance-'$cc' was not built beside $ARCHSCOPE" &&
		whatif '$cc' function &&
		check "$TMP/'$cc'-function.json" "^work \(whatif-openmp-imbalance-'$cc'\)$" $([ '$cc' = gcc ] && echo 1)
	'
	test_expect_success $P "$cc: by line, the work line is a site, no runtime code is" '
		whatif '$cc' line &&
		check "$TMP/'$cc'-line.json" "^openmp-imbalance\.c:[0-9]+ \(work\)$" $([ '$cc' = gcc ] && echo 1)
	'
done
test_expect_success OPENMP_GCC 'text output names the waiting code under its heading' '
	OMP_NUM_THREADS=2 OMP_WAIT_POLICY=active run 0 "$ARCHSCOPE" whatif -q --by function --sites 1 \
		--speedups 0.5 --rounds 1 -- "$EX/whatif-openmp-imbalance-gcc" 40 &&
	contains "$TMP/out" "waiting in an OpenMP runtime (never worth optimizing" &&
	contains "$TMP/out" "(libgomp"
'
test_done
