# archscope model: the Kerncraft paper's 2D 5-point example on Kerncraft's Sandy Bridge file
# (ECMData and layer conditions), the simulator against the layer conditions, every kernel in
# kernels/ with its expected ECMData, sweeps, JSON, and bad input (exit 2 with positions).
. "$(dirname "$0")/lib.sh"
require LIBCLANG
root=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
snb="$root/tests/fixtures/machines/kerncraft-snb-e5-2680.yml"
jac="$root/kernels/jacobi-2d-5pt.c"
here="$root/machines/kvm-xeon-6-207.yaml"

test_expect_success 'the paper'\''s 2D 5-point example: ECMData, layer conditions, bound by MEM' '
	run 0 "$ARCHSCOPE" model "$jac" -m "$snb" -D N 2000 -D M 1000
	contains "$TMP/out" "{ 10.00 | 6.00 | 13.06 } cy/CL"
	contains "$TMP/out" "32\*N - 16 B"
	contains "$TMP/out" "N <= 1024"
	contains "$TMP/out" "all arrays: 16\*M\*N B"
	contains "$TMP/out" "bound by  *MEM"
'
test_expect_success 'layer conditions in JSON: 4 L1 misses, the transition at N <= 1024' '
	run 0 "$ARCHSCOPE" model "$jac" -m "$snb" -D N 2000 -D M 1000 -p LC --json
	json_get "d[\"results\"][\"lc\"][\"levels\"][0][\"conditions\"][d[\"results\"][\"lc\"][\"levels\"][0][\"active\"]][\"misses\"]" | grep -qx 4 ||
		fail "L1 condition 4 misses"
	json_get "[c[\"holds_while_at_most\"].get(\"N\") for c in d[\"results\"][\"lc\"][\"levels\"][0][\"conditions\"]]" | grep -q "1024" ||
		fail "transition N <= 1024"
'
test_expect_success 'ECMData in JSON: Kerncraft'\''s file takes its own rates by default' '
	run 0 "$ARCHSCOPE" model "$jac" -m "$snb" -D N 2000 -D M 1000 -p ECMData --json
	json_get "round(d[\"results\"][\"ecm_data\"][\"MEM\"], 2)" | grep -qx 13.06 || fail "ECMData MEM in JSON"
	lc_l2=$(json_get "d[\"results\"][\"ecm_data\"][\"L2\"]")
	json_get "d[\"results\"][\"ecm_data\"][\"rates\"]" | grep -qx machine || fail "Kerncraft'\''s file: its own rates by default"
	[ "$lc_l2" = "10.0" ] || fail "LC L2 = $lc_l2"
'
# a probed file: transfer costs fitted to its one-core benchmarks, printed with the fit
test_expect_success 'a probed file: transfer costs fitted to its one-core benchmarks, printed with the fit' '
	run 0 "$ARCHSCOPE" model "$root/kernels/stream-triad.c" -m "$here" -D N 40000 -p ECMData --json
	json_get "d[\"results\"][\"ecm_data\"][\"rates\"]" | grep -qx fit || fail "probed file: fitted rates by default"
	json_get "d[\"results\"][\"ecm_data\"][\"transfers\"][0][\"source\"]" | grep -q "^fit: " || fail "fit named as the source"
	run 0 "$ARCHSCOPE" model "$root/kernels/stream-triad.c" -m "$here" -D N 40000 -p ECMData
	contains "$TMP/out" "transfer costs  *fit: fitted to the machine file'\''s one-core benchmarks"
'
test_expect_success '--ecm-rates machine' '
	run 0 "$ARCHSCOPE" model "$root/kernels/stream-triad.c" -m "$here" -D N 40000 -p ECMData --ecm-rates machine --json
	json_get "d[\"results\"][\"ecm_data\"][\"rates\"]" | grep -qx machine || fail "--ecm-rates machine"
'
# the simulator cannot take the probed file's fully associative L2: it says why and what to use
test_expect_success 'the simulator refuses a fully associative L2, saying why' '
	run 2 "$ARCHSCOPE" model "$root/kernels/stream-triad.c" -m "$here" -D N 40000 -p ECMData --cache-predictor sim
	contains "$TMP/err" "takes at most 4096"
'
test_expect_success '--ecm-rates takes fit or machine' '
	run 2 "$ARCHSCOPE" model "$jac" -m "$snb" -D N 20 -D M 20 --ecm-rates often
	contains "$TMP/err" "--ecm-rates must be fit or machine"
'
test_expect_success 'the simulator agrees with the layer conditions within 1 %' '
	run 0 "$ARCHSCOPE" model "$jac" -m "$snb" -D N 2000 -D M 1000 -p ECMData --cache-predictor sim --json
	python3 - "$TMP/out" <<-\PY || fail "simulator and layer conditions differ by more than 1 %"
	import json, sys
	d = json.load(open(sys.argv[1]))["results"]["ecm_data"]
	want = {"L2": 10.0, "L3": 6.0, "MEM": 13.056}
	sys.exit(0 if all(abs(d[k] - v) <= 0.01 * v for k, v in want.items()) else 1)
	PY
'

# every example kernel, with its expected ECMData on the Sandy Bridge file (layer conditions)
test_expect_success 'every example kernel gives its expected ECMData' '
	while read -r kern defs want; do
		run 0 "$ARCHSCOPE" model "$root/kernels/$kern" -m "$snb" ${defs//|/ } -p ECMData
		contains "$TMP/out" "$want"
	done <<-\EOF2
	2d-9pt-flat.c -D|N|1000|-D|M|3000 { 6.00 | 6.00 | 13.06 } cy/CL
	3d-7pt.c -D|N|1000|-D|M|3000 { 14.00 | 10.00 | 22.49 } cy/CL
	3d-long-range.c -D|N|1000|-D|M|3000 { 40.00 | 24.00 | 53.98 } cy/CL
	copy.c -D|N|10000000 { 6.00 | 6.00 | 13.06 } cy/CL
	daxpy.c -D|N|10000000 { 6.00 | 6.00 | 13.06 } cy/CL
	jacobi-2d-5pt.c -D|N|1000|-D|M|3000 { 6.00 | 6.00 | 13.06 } cy/CL
	matvec.c -D|N|1000|-D|M|3000 { 2.00 | 2.00 | 3.88 } cy/CL
	stream-triad.c -D|N|10000000 { 8.00 | 8.00 | 17.41 } cy/CL
	sum.c -D|N|10000000 { 2.00 | 2.00 | 3.88 } cy/CL
	update.c -D|N|10000000 { 4.00 | 4.00 | 8.68 } cy/CL
	vector-triad.c -D|N|10000000 { 10.00 | 10.00 | 22.49 } cy/CL
	EOF2
'

# the long-range stencil on the Ivy Bridge of the paper: the 3D condition holds in L3 up to N = 545
test_expect_success 'the long-range stencil on Ivy Bridge: the 3D condition holds in L3 up to N = 545' '
	run 0 "$ARCHSCOPE" model "$root/kernels/3d-long-range.c" -m "$root/machines/ivb-ep-e5-2690v2.yaml" -D N 1015 -D M 130 -p LC
	contains "$TMP/out" "88\*N^2 B .* 3 .* N <= 545"
'
# its hand-blocked form (bench/blocking-3d-long-range.sh) parses: j = 4 + B*jb + jj, affine in three loops
test_expect_success 'the hand-blocked long-range stencil parses' '
	run 0 "$ARCHSCOPE" model "$root/kernels/3d-long-range-blocked.c" -m "$root/machines/ivb-ep-e5-2690v2.yaml" \
		-D N 1015 -D M 130 -D B 19 -D NB 53 -p LC
	contains "$TMP/out" "iterations  *123713978"
'

# a sweep: one row per size
test_expect_success 'a sweep: one row per size' '
	run 0 "$ARCHSCOPE" model "$jac" -m "$snb" -D N 100:2000:10 -D M 1000 -p ECMData
	[ "$(grep -c '\''^ *[0-9][0-9]* *{'\'' "$TMP/out")" -eq 191 ] || fail "191 sizes"
	contains "$TMP/out" "sizes  *191"
'
test_expect_success 'a sweep plot' '
	command -v gnuplot >/dev/null || skip "no gnuplot"
	run 0 "$ARCHSCOPE" model "$jac" -m "$snb" -D N 100:400:100 -D M 1000 --plot "$TMP/plot"
	[ -s "$TMP/plot/model-sweep.svg" ] || fail "sweep plot"
'
test_expect_success 'a sweep in JSON' '
	run 0 "$ARCHSCOPE" model "$jac" -m "$snb" -D N 100:300:100 -D M 1000 --json
	json_get "len(d[\"results\"][\"sizes\"])" | grep -qx 3 || fail "sweep JSON"
'

# bad input: clear errors with positions, exit 2
test_expect_success 'a syntax error names its position' '
	printf '\''double a[N]\nfor (int i = 0; i < N; i++)\n  a[i] = 1;\n'\'' >"$TMP/syntax.c"
	run 2 "$ARCHSCOPE" model "$TMP/syntax.c" -m "$snb" -D N 10
	contains "$TMP/err" "syntax.c:1:12: expected '\'';'\''"
'
test_expect_success 'an if statement is refused at its position' '
	printf '\''double a[N];\nfor (int i = 0; i < N; i++)\n  if (a[i] > 0) a[i] = 1;\n'\'' >"$TMP/if.c"
	run 2 "$ARCHSCOPE" model "$TMP/if.c" -m "$snb" -D N 10
	contains "$TMP/err" "if.c:3:3: if statements are not supported"
'
test_expect_success 'a constant without a value' '
	run 2 "$ARCHSCOPE" model "$jac" -m "$snb" -D N 100
	contains "$TMP/err" "jacobi-2d-5pt.c:1:10: constant '\''M'\'' has no value"
'
test_expect_success 'a constant that is not positive' '
	run 2 "$ARCHSCOPE" model "$jac" -m "$snb" -D N 0 -D M 10
	contains "$TMP/err" "positive"
	run 2 "$ARCHSCOPE" model "$jac" -m "$snb" -D N -5 -D M 10
'
test_expect_success 'a size over 64 bits' '
	run 2 "$ARCHSCOPE" model "$root/kernels/3d-7pt.c" -m "$snb" -D N 10000000000 -D M 10000000000
	contains "$TMP/err" "64 bits"
'
test_expect_success 'a constant the kernel does not have' '
	run 2 "$ARCHSCOPE" model "$jac" -m "$snb" -D N 10 -D M 10 -D K 3
	contains "$TMP/err" "no constant '\''K'\''"
'
test_expect_success 'a missing kernel' '
	run 2 "$ARCHSCOPE" model "$TMP/missing.c" -m "$snb" -D N 10
	contains "$TMP/err" "cannot open kernel"
'
test_expect_success 'a bad machine file names its line' '
	printf '\''clock: fast\n'\'' >"$TMP/bad.yml"
	run 2 "$ARCHSCOPE" model "$jac" -m "$TMP/bad.yml" -D N 10 -D M 10
	contains "$TMP/err" "line 1"
'
test_expect_success 'an unknown model' '
	run 2 "$ARCHSCOPE" model "$jac" -m "$snb" -D N 10 -D M 10 -p Nonsense
	contains "$TMP/err" "unknown model '\''Nonsense'\''"
'
test_expect_success 'no machine file' '
	run 2 "$ARCHSCOPE" model "$jac" -D N 10 -D M 10
'
test_done
