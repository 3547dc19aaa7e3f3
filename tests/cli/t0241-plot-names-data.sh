# Plots (issue 35, item 2): names reach gnuplot as data, never as code (a regress parameter named
# '.system('touch X').' runs nothing); plot files are not written through symbolic links; an
# unusable --plot/--raw DIR is an error (exit 2) before anything is measured, for every command
# that lists --plot; every such command writes its plot or says why (tune stencil, regress -r 1);
# phases-events draws every counter in both pictures.
. "$(dirname "$0")/lib.sh"
have_gnuplot=0
command -v gnuplot >/dev/null && have_gnuplot=1

cd "$TMP" || fail "cd"
marker=$TMP/ran
RAMP="$(dirname "$ARCHSCOPE")/examples/ramp-compute"

# a hostile parameter name and program argument: nothing runs, the plots are drawn
hostile_name() {
	local name="N'.system('touch ran').'\`touch ran\`"
	run 0 "$ARCHSCOPE" regress -q --param "$name=1,2,3" -r 1 -e page-faults --plot "$TMP/p1" -- sh -c ": {$name}"
	[ ! -e "$marker" ] || fail "a parameter name ran as gnuplot code"
	[ -s "$TMP/p1/regress-page-faults.gp" ] || fail "regress -r 1 --plot wrote no script"
	contains "$TMP/p1/regress-page-faults.gp" "set xlabel 'N''.system(''touch"
	# -r 1 has too few runs to fit: the runs are drawn and the reason is on the picture
	contains "$TMP/p1/regress-page-faults.gp" "no fit:"
	if [ "$have_gnuplot" = 1 ]; then
		[ -s "$TMP/p1/regress-page-faults.svg" ] && [ -s "$TMP/p1/regress-page-faults.png" ] || fail "regress -r 1: no picture"
		[ ! -e "$marker" ] || fail "gnuplot ran a name as code"
		! ls -A "$TMP/p1" | grep -q archscope-plot || fail "a private plot directory was left behind"
	fi
}
test_expect_success 'a hostile parameter name: data, never code; -r 1 draws the runs and says why no fit' 'hostile_name'

# a symbolic link where a picture goes is not written through
test_expect_success 'a symbolic link where a picture goes is not written through' '
	[ "$have_gnuplot" = 1 ] || skip "no gnuplot in PATH"
	mkdir "$TMP/p2"
	echo keep >"$TMP/victim"
	ln -s "$TMP/victim" "$TMP/p2/regress-page-faults.svg"
	"$ARCHSCOPE" regress -q --param N=1,2 -r 2 -e page-faults --plot "$TMP/p2" -- sh -c ": {N}" >"$TMP/out" 2>"$TMP/err"
	[ "$(cat "$TMP/victim")" = keep ] || fail "a plot was written through a symbolic link"
	contains "$TMP/err" "symbolic link"
'

# unusable directories: exit 2 before anything runs (the program would create $marker)
mkdir "$TMP/ro" && chmod 555 "$TMP/ro"
touch "$TMP/file"
mkdir "$TMP/linked"
ln -s "$TMP/linked" "$TMP/link"
cmds="
regress --param N=1,2 -r 1 --plot DIR -- touch $marker {N}
phases --plot DIR -- touch $marker
stack -t 1 -r 1 --plot DIR -- touch $marker
memhist --plot DIR --from $ROOT/tests/fixtures/measure/memhist-amd.jsonl
bench copy --sweep --plot DIR
probe clock --plot DIR
probe clock --raw DIR
numa matrix --plot DIR
tune gemm --short --plot DIR
tune stencil -m $ROOT/tests/fixtures/tune/zen5-published.yaml --short --plot DIR
model $ROOT/kernels/3d-7pt.c -D N 10:20:10 -D M 100 -m $ROOT/machines/kvm-xeon-6-207.yaml --plot DIR
"
# unusable_dir DIR: every command that lists --plot (and probe --raw) refuses DIR with exit 2,
# naming it, before it runs anything
unusable_dir() {
	local dir=$1 cmd rc
	while read -r cmd; do
		[ -n "$cmd" ] || continue
		# shellcheck disable=SC2086
		timeout 20 "$ARCHSCOPE" ${cmd//DIR/$dir} >"$TMP/out" 2>"$TMP/err"
		rc=$?
		[ "$rc" -eq 2 ] || { cat "$TMP/err" >&2; fail "$cmd with $dir: exit $rc, expected 2"; }
		grep -qF -- "$dir" "$TMP/err" || { cat "$TMP/err" >&2; fail "$cmd: the message does not name $dir"; }
		[ ! -e "$marker" ] || fail "$cmd ran the program before checking $dir"
	done <<<"$cmds"
}
test_expect_success '--plot/--raw in a directory that cannot be made: exit 2 before anything runs' '
	unusable_dir "$TMP/missing/deep"
'
test_expect_success '--plot/--raw on a file: exit 2 before anything runs' '
	unusable_dir "$TMP/file"
'
test_expect_success '--plot/--raw on a symbolic link: exit 2 before anything runs' '
	unusable_dir "$TMP/link"
'
test_expect_success '--plot/--raw under a read-only directory: exit 2 before anything runs' '
	[ "$(id -u)" -ne 0 ] || skip "root writes into a read-only directory"
	unusable_dir "$TMP/ro/sub"
'
test_expect_success '--plot into a read-only directory: cannot write into directory' '
	[ "$(id -u)" -ne 0 ] || skip "root writes into a read-only directory"
	run 2 "$ARCHSCOPE" probe clock --plot "$TMP/ro"
	contains "$TMP/err" "cannot write into directory"
'

# phases-events: the body is drawn once per terminal, so the PNG shows every counter too
test_expect_success 'phases-events: drawn once per picture, every counter in both' '
	run 0 "$ARCHSCOPE" phases -q --plot "$TMP/p3" -e task-clock,page-faults -- "$RAMP" 16 0.2 0.2
	[ "$(grep -c "^set multiplot" "$TMP/p3/phases-events.gp")" -eq 2 ] || fail "phases-events: not drawn once per picture"
	! grep -q replot "$TMP/p3/phases-events.gp" || fail "phases-events replots (the PNG would show the last counter only)"
	contains "$TMP/p3/phases-events.gp" "set ylabel '\''task-clock"
	contains "$TMP/p3/phases-events.gp" "set ylabel '\''page-faults"
'

# tune stencil --plot draws (or says why not)
test_expect_success LIBCLANG 'tune stencil --plot draws' '
	run 0 "$ARCHSCOPE" tune stencil -q -m "$ROOT/tests/fixtures/tune/zen5-published.yaml" --short --plot "$TMP/p4"
	[ -s "$TMP/p4/tune-stencil.dat" ] && [ -s "$TMP/p4/tune-stencil.gp" ] || fail "tune stencil --plot wrote nothing"
	[ "$have_gnuplot" = 0 ] || [ -s "$TMP/p4/tune-stencil.svg" ] || fail "tune stencil --plot: no picture"
'
# without gnuplot the user is told, even with -q
test_expect_success 'without gnuplot the user is told, even with -q' '
	PATH=/nonexistent run 0 "$ARCHSCOPE" memhist -q --plot "$TMP/p5" --from "$ROOT/tests/fixtures/measure/memhist-amd.jsonl"
	contains "$TMP/err" "gnuplot is not installed"
'
test_done
