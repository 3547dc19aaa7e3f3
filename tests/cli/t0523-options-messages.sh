# Options dropped, checked late or with the wrong code, and messages (issue 52): each bad input
# is exit 2 before anything is measured or run, and says the thing, the reason and what to do.
# Nothing here measures for long: the programs are `true`, `touch` and a script of one line.
. "$(dirname "$0")/lib.sh"
fx=$ROOT/tests/fixtures
cd "$TMP" # where a binary that runs the program anyway leaves touch's other files ({N}, 1, 2)
printf 'touch "$(dirname "$0")/ran-noshebang"\n' >"$TMP/noshebang"
chmod +x "$TMP/noshebang"
printf 'data\n' >"$TMP/data"
not_ran() { [ ! -e "$TMP/ran" ] || fail "the program ran before the bad input was refused"; }

# 1. parameters dropped
test_expect_success 'regress: a second --param is refused, not dropped' '
	run 2 "$ARCHSCOPE" regress --param N=1,2 --param M=3,4 -- touch "$TMP/ran" {N} {M}
	contains "$TMP/err" "param is given 2 times ('\''N=1,2'\'' and '\''M=3,4'\'')"
	contains "$TMP/err" "run it once per parameter"
	not_ran
'
test_expect_success 'regress: an empty value at the end of --param' '
	run 2 "$ARCHSCOPE" regress --param N=1,2, -- touch "$TMP/ran" {N}
	contains "$TMP/err" "an empty value (at the end)"
	run 2 "$ARCHSCOPE" regress --param N=1,,2 -- touch "$TMP/ran" {N}
	contains "$TMP/err" "an empty value"
	not_ran
'
test_expect_success 'regress: a parameter name past the limit names the limit' '
	long=$(printf "N%.0s" $(seq 1 64))
	run 2 "$ARCHSCOPE" regress --param "$long=1,2" -- touch "$TMP/ran" "{$long}"
	contains "$TMP/err" "is 64 characters, more than the 63 allowed"
	not_ran
'

# 2. empty and sloppy option values
test_expect_success 'phases -e "" is refused' '
	run 2 "$ARCHSCOPE" phases -e "" -- touch "$TMP/ran"
	contains "$TMP/err" "an empty event name"
	run 2 "$ARCHSCOPE" phases -e task-clock, -- touch "$TMP/ran"
	contains "$TMP/err" "an empty event name"
	not_ran
'
test_expect_success 'stack -t: the strict number parser, no empty item, the limit named' '
	run 2 "$ARCHSCOPE" stack -t " 5" -- touch "$TMP/ran"
	contains "$TMP/err" "'\'' 5'\'' is not a thread count"
	run 2 "$ARCHSCOPE" stack -t 1,2, -- touch "$TMP/ran"
	contains "$TMP/err" "an empty thread count"
	run 2 "$ARCHSCOPE" stack -t 0x2 -- touch "$TMP/ran"
	contains "$TMP/err" "is not a thread count"
	run 2 "$ARCHSCOPE" stack -t 5000 -- touch "$TMP/ran"
	contains "$TMP/err" "beyond the limit of 4096"
	not_ran
'
test_expect_success 'events --pmu "" is refused (it listed the Pentium 4 events)' '
	run 2 "$ARCHSCOPE" events --pmu ""
	contains "$TMP/err" "an empty PMU name"
	[ ! -s "$TMP/out" ] || fail "events listed something"
'
test_expect_success 'phases --interval is real-valued: 1e3 is 1000 ms' '
	run 1 "$ARCHSCOPE" phases -q --interval 1e3 -- true
	contains "$TMP/err" "three sampling intervals of 1000 ms"
	grep -q "MS is a real number" "$ROOT/docs/archscope-phases.md" || fail "not documented"
'

# 3. probe --plan
test_expect_success 'probe --plan under HWLOC_XMLFILE plans the file alone, labelled as it' '
	xml=$fx/topo/hwloc-amd-epyc-7763-2s.xml
	run 0 "$ARCHSCOPE" probe --plan --json --seed 1 --topology "$xml"
	mv "$TMP/out" "$TMP/file.json"
	HWLOC_XMLFILE=$xml run 0 "$ARCHSCOPE" probe --plan --json --seed 1
	python3 - "$TMP/out" "$TMP/file.json" <<-PY || fail "plan"
	import json, sys
	p, f = (json.load(open(a))["results"]["plan"] for a in sys.argv[1:3])
	assert "(HWLOC_XMLFILE)" in p["topology"] and "this machine" not in p["topology"], p["topology"]
	# the file only: the same CPUs and plan as --topology FILE (it took the CPUs of this machine)
	assert (p["cpus"], p["pus"], p["predicted_s"], p["c2c"]) == (f["cpus"], f["pus"], f["predicted_s"], f["c2c"])
	assert p["cpus"] > 2, p["cpus"]
	PY
	HWLOC_XMLFILE=$xml run 0 "$ARCHSCOPE" probe --plan --json --topology "$fx/topo/hwloc-intel-i7-1370p-hybrid.xml"
	json_get "d[\"results\"][\"plan\"][\"topology\"]" | grep -q "hwloc-intel-i7-1370p-hybrid.xml (" || fail "--topology wins"
'
test_expect_success 'probe --plan with --plot or --raw is refused, nothing written' '
	run 2 "$ARCHSCOPE" probe --plan --plot "$TMP/p"
	contains "$TMP/err" "plan measures nothing, so --plot has no curves"
	run 2 "$ARCHSCOPE" probe --plan --raw "$TMP/r"
	contains "$TMP/err" "plan measures nothing, so --raw has no curves"
	[ ! -e "$TMP/p" ] && [ ! -e "$TMP/r" ] || fail "a directory was made"
'

# 4. outputs checked before anything runs, the right exit code
test_expect_success '-o "" is refused before the program runs' '
	for c in stat regress phases; do
		extra=; [ $c = regress ] && extra="--param N=1,2"
		run 2 "$ARCHSCOPE" $c $extra -o "" -- touch "$TMP/ran" {N}
		contains "$TMP/err" "an empty file name"
	done
	run 2 "$ARCHSCOPE" compare -r 2 -o "" -- touch "$TMP/ran" -- touch "$TMP/ran"
	contains "$TMP/err" "an empty file name"
	run 2 "$ARCHSCOPE" report -o ""
	contains "$TMP/err" "an empty file name"
	run 2 "$ARCHSCOPE" probe -o ""
	contains "$TMP/err" "an empty file name"
	not_ran
	ls -a | grep -q "^\.tmp" && fail "a temporary file was left here" || true
'
test_expect_success 'report --save with an unusable directory is exit 2, as --plot' '
	run 2 "$ARCHSCOPE" report -q -o "$TMP/r.html" --save "$TMP/no/such/dir"
	contains "$TMP/err" "save"
	contains "$TMP/err" "no/such"
'
test_expect_success 'report -t beyond the allowed CPUs: exit 2 before measuring' '
	n=$(python3 -c "import os; print(len(os.sched_getaffinity(0)))")
	# exit 2 from the check (it was exit 1 from bench, after topology and probe had run)
	run 2 "$ARCHSCOPE" report -q -o "$TMP/r.html" -t $((n + 1))
	contains "$TMP/err" "give -t $n or fewer"
	[ ! -e "$TMP/r.html" ] || fail "a page was written"
'

# 5. option order and exit codes
test_expect_success 'memhist --thresholds is read before the PMU is asked' '
	run 2 "$ARCHSCOPE" memhist --thresholds abc -- touch "$TMP/ran"
	contains "$TMP/err" "thresholds"
	! grep -qi "PEBS\|IBS\|sampl" "$TMP/err" || fail "the PMU error came first"
	not_ran
'
test_expect_success 'tune --cpu of a CPU not allowed: exit 2 with and without -m' '
	run 2 "$ARCHSCOPE" tune gemm --short --cpu 65535 -m "$fx/tune/zen5-published.yaml"
	contains "$TMP/err" "cpu 65535 is not in the allowed set"
	run 2 "$ARCHSCOPE" tune gemm --short --cpu 65535
	contains "$TMP/err" "cpu 65535 is not in the allowed set"
'
test_expect_success 'LIBPFM_FORCE_PMU naming no PMU: exit 2, the variable named' '
	LIBPFM_FORCE_PMU=nosuch run 2 "$ARCHSCOPE" events
	contains "$TMP/err" "LIBPFM_FORCE_PMU='\''nosuch'\''"
	run 2 "$ARCHSCOPE" events --pmu nosuch
	contains "$TMP/err" "pmu '\''nosuch'\''"
	# stat, regress and phases encode every event for the forced PMU: refused before the program runs
	LIBPFM_FORCE_PMU=nosuch run 2 "$ARCHSCOPE" stat -r 1 -e task-clock -- touch "$TMP/ran"
	contains "$TMP/err" "LIBPFM_FORCE_PMU='\''nosuch'\''"
	LIBPFM_FORCE_PMU= run 2 "$ARCHSCOPE" phases -- touch "$TMP/ran"
	contains "$TMP/err" "LIBPFM_FORCE_PMU=.*an empty PMU name"
	[ ! -e "$TMP/ran" ]
'
test_expect_success 'a script without #! runs under stack as under stat (/bin/sh)' '
	run 0 "$ARCHSCOPE" stat -q -r 1 -e task-clock -- "$TMP/noshebang"
	[ -e "$TMP/ran-noshebang" ] || fail "stat did not run it"
	rm -f "$TMP/ran-noshebang"
	run 0 "$ARCHSCOPE" stack -q -t 1 -r 1 -- "$TMP/noshebang"
	[ -e "$TMP/ran-noshebang" ] || fail "stack did not run it"
'

# 6. messages
test_expect_success 'an empty program name is said so (stat, stack)' '
	run 2 "$ARCHSCOPE" stat -r 1 -- ""
	contains "$TMP/err" "an empty program name"
	! grep -q "directory" "$TMP/err" || fail "a PATH directory was named"
	run 2 "$ARCHSCOPE" stack -t 1 -r 1 -- ""
	contains "$TMP/err" "an empty program name"
'
test_expect_success 'stack says why a file cannot run, in stat'\''s words' '
	run 2 "$ARCHSCOPE" stat -r 1 -- "$TMP/data"
	contains "$TMP/err" "it is not executable (no execute permission"
	run 2 "$ARCHSCOPE" stack -t 1 -r 1 -- "$TMP/data"
	contains "$TMP/err" "it is not executable (no execute permission"
	run 2 "$ARCHSCOPE" stack -t 1 -r 1 -- "$TMP"
	contains "$TMP/err" "it is a directory"
'
test_expect_success 'a write to /dev/full says why (ENOSPC)' '
	[ -w /dev/full ] || skip "no /dev/full"
	run 1 "$ARCHSCOPE" report -q --force -o /dev/full --from "$fx/report/topology.json"
	contains "$TMP/err" "cannot write '\''/dev/full'\'': No space left on device"
'
test_expect_success 'standard input named twice is refused' '
	run 2 "$ARCHSCOPE" compare - - </dev/null
	contains "$TMP/err" "standard input ('\''-'\'') is named twice"
	run 2 "$ARCHSCOPE" machine diff - - </dev/null
	contains "$TMP/err" "standard input ('\''-'\'') is named twice"
	run 2 "$ARCHSCOPE" report -o "$TMP/r.html" --from - - </dev/null
	contains "$TMP/err" "standard input ('\''-'\'') is named twice"
'
test_expect_success 'tune foo names the kernels' '
	run 2 "$ARCHSCOPE" tune foo
	contains "$TMP/err" "'\''foo'\'' is not a tune kernel (gemm, stencil)"
'
test_expect_success 'model -D "N 100" says what form is expected' '
	run 2 "$ARCHSCOPE" model k.c -D "N 100" -m m.yaml
	contains "$TMP/err" "give NAME=VALUE or NAME and VALUE as two words"
	run 2 "$ARCHSCOPE" model k.c -D "N 100"
	contains "$TMP/err" "give NAME=VALUE or NAME and VALUE as two words"
	long=$(printf "N%.0s" $(seq 1 64))
	run 2 "$ARCHSCOPE" model k.c -D "$long=1" -m m.yaml
	contains "$TMP/err" "is 64 characters, more than the 63 allowed"
'
test_expect_success 'a bad TMPDIR is named with the reason (report, stack)' '
	TMPDIR=$TMP/no/such run 1 "$ARCHSCOPE" report -q -o "$TMP/r.html"
	contains "$TMP/err" "'\''$TMP/no/such'\'' (TMPDIR): no such file or directory"
	TMPDIR=$TMP/no/such run 2 "$ARCHSCOPE" stack -q -t 1 -r 1 -- true
	contains "$TMP/err" "'\''$TMP/no/such'\'' (TMPDIR): no such file or directory"
'
test_expect_success 'regress -r 1 prints the reason its JSON gives' '
	run 0 "$ARCHSCOPE" regress -q -r 1 --param N=1,2 -e task-clock -o "$TMP/r.json" -- sh -c ": {N}"
	reason=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[\"results\"][\"events\"][0][\"reason\"])" "$TMP/r.json")
	[ "$reason" = "too few counted runs to fit" ] || skip "task-clock: $reason"
	contains "$TMP/err" "too few counted runs to fit"
'
test_done
