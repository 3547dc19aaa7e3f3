# archscope cluster before any MPI run: --help, bad options (exit 2 naming the option), an archscope
# built without Open MPI (one line saying what to do, exit 1), and not started by mpirun (one line,
# exit 2).
. "$(dirname "$0")/lib.sh"
test_expect_success 'cluster --help' '
	run 0 "$ARCHSCOPE" cluster --help
	contains "$TMP/out" "mpirun -np P"
	contains "$TMP/out" "Exit status"
'
test_expect_success 'help cluster' '
	run 0 "$ARCHSCOPE" help cluster
	contains "$TMP/out" "--machine-files"
'

bad() { # bad WANT ARGS...: a usage error whose message names WANT
	local want=$1; shift
	run 2 "$ARCHSCOPE" cluster "$@"
	contains "$TMP/err" "archscope: error: .*$want"
	contains "$TMP/err" "see 'archscope cluster --help'"
}
test_expect_success '--sizes 0' "bad \"--sizes: '0'\" --sizes 0"
test_expect_success '--sizes 8,much' "bad \"--sizes: 'much'\" --sizes 8,much"
test_expect_success '--skip nodes,everything' "bad \"unknown word 'everything'\" --skip nodes,everything"
test_expect_success '--probes clock,speed' "bad \"unknown word 'speed'\" --probes clock,speed"
test_expect_success '--size 0' "bad \"--size: '0'\" --size 0"
test_expect_success '--gap 1' 'bad "--gap must be above 1" --gap 1'
test_expect_success '--reps 1' 'bad "--reps must be 10 to" --reps 1'
test_expect_success '--node-memory 1KiB' "bad \"--node-memory: '1KiB'\" --node-memory 1KiB"
test_expect_success 'an argument' "bad \"unexpected argument 'now'\" now"

# built without Open MPI: a copy of archscope with no archscope-cluster beside it
cp "$ARCHSCOPE" "$TMP/archscope"
test_expect_success 'built without Open MPI: one line saying what to install, exit 1' '
	run 1 "$TMP/archscope" cluster --json
	contains "$TMP/err" "built without Open MPI: install openmpi-bin and libopenmpi-dev"
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "more than one line: $(cat "$TMP/err")"
	[ ! -s "$TMP/out" ] || fail "output on stdout"
'
# bad options are still usage errors there
test_expect_success 'built without Open MPI: bad options are still usage errors' '
	run 2 "$TMP/archscope" cluster --window 0
'

# not under mpirun: one line, before MPI starts anything
test_expect_success MPI 'not started by mpirun: one line, exit 2' '
	run 2 env -u OMPI_COMM_WORLD_SIZE -u PMIX_RANK -u PMI_RANK -u PMI_SIZE "$ARCHSCOPE" cluster
	contains "$TMP/err" "not started by mpirun: run it as '\''mpirun -np P"
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "more than one line: $(cat "$TMP/err")"
'
test_done
