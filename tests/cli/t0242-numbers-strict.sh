# Numbers parsed strictly by one parser (issue 35, item 5): decimal only ("-r 010" runs ten times,
# "0x10" and "32abc" are errors), no trailing text, bounds; machine files checked for consistency
# (size per group = sets x ways x cl_size) and bounds; a 1 TiB L1 is refused at once, not tuned
# for hours; `machine validate` fails a probe -o file cut inside its archscope: section.
. "$(dirname "$0")/lib.sh"
fx=$ROOT/tests/fixtures

test_expect_success '-r 010 is ten runs (decimal)' '
	run 0 "$ARCHSCOPE" stat -q -o "$TMP/out" -r 010 -e task-clock -- true
	[ "$(json_get "d[\"results\"][\"runs\"]")" = 10 ] || fail "-r 010 did not run ten times"
'
# name|command: each a usage error (exit 2) that quotes the bad text
bad="
0x10|stat -r 0x10 -- true
32abc|tune gemm --registers 32abc
1e3|stat -r 1e3 -- true
 5|stat -r ' 5' -- true
5x|bench copy -s 5x
inf|analyze --method qt --diameter inf $fx/kvm-xeon-6-207/caches.csv
0x10|model $ROOT/kernels/3d-7pt.c -D N 0x10 -D M 10 -m $ROOT/machines/kvm-xeon-6-207.yaml
10:20x|model $ROOT/kernels/3d-7pt.c -D N 10:20x -D M 10 -m $ROOT/machines/kvm-xeon-6-207.yaml
lin:1:10x|memhist --bins lin:1:10x --from $fx/measure/memhist-amd.jsonl
2x|phases --segments 2x -- true
0x2|regress --param N=1,0x2 -- true {N}
"
while IFS='|' read -r text cmd; do
	[ -n "$cmd" ] || continue
	test_expect_success "${cmd%% [-/]*}: '$text' is refused" '
		eval "set -- $cmd"
		timeout 20 "$ARCHSCOPE" "$@" >"$TMP/out" 2>"$TMP/err"
		rc=$?
		cat "$TMP/err"
		[ "$rc" -eq 2 ] || fail "$cmd: exit $rc, expected 2"
		grep -qF -- "$text" "$TMP/err" || fail "$cmd: the message does not quote '\''$text'\''"
	'
done <<<"$bad"

# a register count in the machine file read strictly
test_expect_success 'a register count in the machine file read strictly' '
	sed "s/value: 32.0/value: 32abc/" "$fx/tune/zen5-published.yaml" >"$TMP/regs.yaml"
	run 2 timeout 20 "$ARCHSCOPE" tune gemm -m "$TMP/regs.yaml" --short
	contains "$TMP/err" "registers.fp.value: '\''32abc'\'' is not a number"
'

# machine files: size per group against sets x ways x cl_size, bounds
m=$ROOT/machines/kvm-xeon-6-207.yaml
sed '0,/size per group: 49.15 kB/s//size per group: 64.00 kB/' "$m" >"$TMP/size.yaml"
test_expect_success 'machine validate: a size per group that contradicts sets x ways x cl_size' '
	run 2 "$ARCHSCOPE" machine validate "$TMP/size.yaml"
	contains "$TMP/err" "memory hierarchy\[0\].size per group: 64.00 kB contradicts cache per group: sets 1 x ways 768 x cl_size 64 = 49152 B"
'
test_expect_success 'model: the same contradiction' '
	run 2 "$ARCHSCOPE" model "$ROOT/kernels/3d-7pt.c" -D N 100 -D M 100 -m "$TMP/size.yaml"
	contains "$TMP/err" "contradicts"
'
# a 1 TiB L1: refused at once by every command that reads the file
python3 - "$fx/tune/zen5-published.yaml" "$TMP/huge.yaml" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
t = re.sub(r"(- level: L1\n  cache per group: \{)sets: \d+", r"\1sets: 1431655765", t, count=1)
t = re.sub(r"(- level: L1\n(?:  .*\n)*?  size per group: ).*", r"\g<1>1 TiB", t, count=1)
open(sys.argv[2], "w").write(t)
PY
grep -q "sets: 1431655765" "$TMP/huge.yaml" || fail "the 1 TiB file was not made"
for cmd in "tune gemm -m $TMP/huge.yaml --short" "tune stencil -m $TMP/huge.yaml --short" "machine validate $TMP/huge.yaml"; do
	test_expect_success "a 1 TiB L1 is refused at once: ${cmd%% [-/]*}" '
		start=$(date +%s)
		run 2 timeout 20 "$ARCHSCOPE" $cmd
		contains "$TMP/err" "the most a first-level cache may hold"
		[ $(($(date +%s) - start)) -lt 15 ] || fail "a 1 TiB L1 took long to refuse"
	'
done
# a probe -o file cut inside its archscope: section fails validate; the whole one passes
test_expect_success 'machine validate passes the whole file' 'run 0 "$ARCHSCOPE" machine validate "$m"'
total=$(wc -l <"$m")
first=$(grep -n '^archscope:' "$m" | cut -d: -f1)
for n in $(seq "$first" 37 "$total") $((total - 1)); do
	test_expect_success "machine validate fails the file cut after line $n of $total" '
		head -n "$n" "$m" >"$TMP/cut.yaml"
		"$ARCHSCOPE" machine validate "$TMP/cut.yaml" >"$TMP/out" 2>"$TMP/err"
		rc=$?
		cat "$TMP/err"
		[ "$rc" -eq 2 ] || fail "validate exits $rc on the file cut after line $n"
		grep -q "looks cut\|incomplete" "$TMP/err" || fail "cut after line $n: the message does not say so"
	'
done
test_expect_success 'machine validate fails the file cut inside its last line' '
	head -c "$(($(wc -c <"$m") - 7))" "$m" >"$TMP/cut.yaml"
	run 2 "$ARCHSCOPE" machine validate "$TMP/cut.yaml"
'
test_done
