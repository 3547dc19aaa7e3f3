# What perf stat users expect of stat (issue 35): -x SEP gives perf's CSV (value,unit,event,...), -I MS
# counts every interval (the intervals add up to the total), -p PID attaches to a running process
# (until a timing command ends, the process exits, or SIGINT), -a counts every CPU (and says clearly
# when it may not); derived rates; ± is the standard error of the mean and the header says so; counts
# are integers, times in s/ms with units, sizes in binary units.
. "$(dirname "$0")/lib.sh"
busy='i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'

# -x: perf's fields, counts as integers, task-clock in msec, the rate and its unit
test_expect_success '-x: perf'\''s fields, integer counts, task-clock in msec, the rate and its unit' '
	run 0 "$ARCHSCOPE" stat -q -r 3 -x ";" -e task-clock,page-faults,context-switches -- sh -c "ls / >/dev/null"
	grep -Eq "^[0-9]+\.[0-9]{2};msec;task-clock;[0-9.]+%;;[0-9.]+;[0-9.]+;CPUs utilized$" "$TMP/err" || fail "-x: task-clock line"
	grep -Eq "^[0-9]+;;page-faults;[0-9.]+%;;100\.00;[0-9.]+;[KMG]?/sec$" "$TMP/err" || fail "-x: page-faults line"
	! grep -Eq "^<not counted>;;" "$TMP/err" || fail "-x: a software event not counted"
'

# text: the header names the ±, counts are integers, no exponent anywhere, times and sizes in units
test_expect_success 'text: the header names the ±, integer counts, no exponents, times and sizes in units' '
	run 0 "$ARCHSCOPE" stat -q -r 3 -e task-clock,page-faults,context-switches -- sh -c "$busy"
	contains "$TMP/err" "±  *the standard error of the mean"
	grep -E "^  page-faults +[0-9,]+ +[0-9.]+ %" "$TMP/err" >/dev/null || fail "page-faults not an integer count"
	grep -E "^  context-switches +[0-9,]+ " "$TMP/err" >/dev/null || fail "context-switches not an integer count"
	grep -E "^  task-clock +[0-9.]+ (s|ms|us) " "$TMP/err" >/dev/null || fail "task-clock not in s/ms/us"
	grep -E "^  rusage:max-rss +[0-9.,]+ (KiB|MiB|GiB) " "$TMP/err" >/dev/null || fail "max-rss not in binary units"
	! grep -E "[0-9]e[+-][0-9]" "$TMP/err" || fail "a number in exponent notation"
	contains "$TMP/err" "CPUs utilized"
	contains "$TMP/err" "/s"
'
# JSON: the standard error beside the deviation, the rate with its formula
test_expect_success 'JSON: the standard error beside the deviation, the rate with its formula' '
	run 0 "$ARCHSCOPE" stat -q -r 3 -e task-clock,page-faults -o "$TMP/j.json" -- sh -c "$busy"
	python3 - "$TMP/j.json" <<-\PY || fail "sem and rate in JSON"
	import json, math, sys
	ev = {e["name"]: e for e in json.load(open(sys.argv[1]))["results"]["events"]}
	tc = ev["task-clock"]
	assert abs(tc["sem"] - tc["stddev"] / math.sqrt(tc["n"])) <= 1e-9 * tc["stddev"] + 1e-12, tc
	assert tc["rate"]["unit"] == "CPUs utilized" and 0 < tc["rate"]["value"] < 4, tc["rate"]
	assert ev["page-faults"]["rate"]["unit"] == "/s" and "task-clock" in ev["page-faults"]["rate"]["formula"]
	PY
'

# -I: every interval printed as it comes; in JSON the intervals add up to the total
test_expect_success '-I: every interval printed as it comes; in JSON they add up to the total' '
	run 0 "$ARCHSCOPE" stat -q -r 1 -I 50 -e task-clock,page-faults -o "$TMP/i.json" -- sh -c "$busy"
	grep -Eq "^ +[0-9]+\.[0-9]+ +[0-9.]+ (s|ms|us) +task-clock$" "$TMP/err" || fail "-I: no interval line on stderr"
	python3 - "$TMP/i.json" <<-\PY || fail "-I: intervals do not add up to the total"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]
	iv = r["intervals"]
	assert len(iv) >= 2, len(iv)
	ts = [i["t_s"] for i in iv]
	assert ts == sorted(ts) and abs(ts[0] - 0.05) < 1e-6, ts[:3]
	ev = {e["name"]: e for e in r["events"]}
	for name in ("task-clock", "page-faults"):
	    total = sum(i["events"][name] for i in iv)
	    assert abs(total - ev[name]["mean"]) <= 1e-6 * ev[name]["mean"] + 1, (name, total, ev[name]["mean"])
	PY
'
test_expect_success '-I with -x: the interval lines in CSV' '
	run 0 "$ARCHSCOPE" stat -q -r 1 -I 50 -x, -e task-clock -- sh -c "$busy"
	grep -Eq "^0\.050000,[0-9.]+,msec,task-clock," "$TMP/err" || fail "-I -x: no interval line"
'

# -p: a process running apart from archscope, counted while a timing command runs
sh -c "while :; do $busy; done # mark0227p" &
victim=$!
trap 'rc=$?; kill $victim 2>/dev/null; (exit $rc); lib_exit_' EXIT
test_expect_success '-p with a timing command: the process counted while it runs' '
	run 0 "$ARCHSCOPE" stat -q -p "$victim" -e task-clock,context-switches -o "$TMP/p.json" -- sleep 0.5
	python3 - "$TMP/p.json" <<-\PY || fail "-p with a timer"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]
	ev = {e["name"]: e for e in r["events"]}
	assert r["target"] == "attach" and r["runs_done"] == 1
	tc = ev["task-clock"]["mean"]
	wall = ev["wall-time"]["mean"]
	assert 0.45e9 < wall < 5e9, wall
	assert 0 < tc <= 1.1 * wall, (tc, wall)  # one busy shell: at most one CPU worth of the window
	assert ev["rusage:user-time"]["n"] == 0 and ev["rusage:user-time"]["reason"], "rusage of a process that is not our child"
	PY
'
# -p until SIGINT: the count ends, the process goes on, exit 0
test_expect_success '-p until SIGINT: the count ends, the process goes on, exit 0' '
	"$ARCHSCOPE" stat -q -p "$victim" -e task-clock -x, >/dev/null 2>"$TMP/err" &
	st=$!
	sleep 0.5
	kill -INT "$st"
	wait "$st" || fail "-p ended by SIGINT: exit $?, expected 0"
	kill -0 "$victim" || fail "-p: SIGINT to archscope reached the attached process"
	grep -Eq "^[0-9.]+,msec,task-clock," "$TMP/err" || fail "-p ended by SIGINT: no count"
'
# -p until the process exits
test_expect_success '-p until the process exits' '
	sh -c "sleep 0.4; $busy" &
	short=$!
	run 0 "$ARCHSCOPE" stat -q -p "$short" -e task-clock -- sleep 30
	grep -E "^  wall-time +[0-9.]+ (s|ms) " "$TMP/err" >/dev/null || fail "-p: no wall time"
	python3 - "$TMP/err" <<-\PY || fail "-p did not end when the process did"
	import re, sys
	m = re.search(r"^  wall-time +([0-9.]+) (s|ms) ", open(sys.argv[1]).read(), re.M)
	v = float(m.group(1)) * (1 if m.group(2) == "s" else 1e-3)
	assert v < 20, v
	PY
'
test_expect_success '-p of no such process: exit 2' '
	run 2 "$ARCHSCOPE" stat -q -p 999999999 -e task-clock
	contains "$TMP/err" "no such process"
'
test_expect_success '-p with -r: cannot repeat' '
	run 2 "$ARCHSCOPE" stat -q -p "$victim" -r 3 -e task-clock
	contains "$TMP/err" "cannot repeat"
'
test_expect_success '-p with -a: exit 2' '
	run 2 "$ARCHSCOPE" stat -q -p "$victim" -a -e task-clock
'
kill "$victim"

# -a: every CPU where it may; a clear error where it may not
test_expect_success ROOT '-a counts every CPU: task-clock about CPUs x wall' '
	run 0 "$ARCHSCOPE" stat -q -a -e task-clock -o "$TMP/a.json" -- sleep 0.3
	python3 - "$TMP/a.json" <<-\PY || fail "-a"
	import json, os, sys
	r = json.load(open(sys.argv[1]))["results"]
	ev = {e["name"]: e for e in r["events"]}
	assert r["target"] == "system" and r["cpus"] == os.cpu_count(), r["cpus"]
	# cpu-wide task-clock counts the time of every CPU, idle included: about CPUs x wall
	ratio = ev["task-clock"]["mean"] / ev["wall-time"]["mean"]
	assert 0.5 * r["cpus"] < ratio < 1.5 * r["cpus"], ratio
	PY
'
test_expect_success '-a where it may not: exit 1 naming root, CAP_PERFMON and perf_event_paranoid' '
	[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 0 ] || skip "kernel.perf_event_paranoid <= 0: -a may count here"
	if prereq ROOT; then
		command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups "$ARCHSCOPE" help >/dev/null 2>&1 ||
			skip "as root, needs setpriv to run archscope as nobody"
		run 1 setpriv --reuid=65534 --regid=65534 --clear-groups "$ARCHSCOPE" stat -q -a -e task-clock -- true
	else
		run 1 "$ARCHSCOPE" stat -q -a -e task-clock -- true
	fi
	contains "$TMP/err" "needs root, CAP_PERFMON or kernel.perf_event_paranoid <= 0"
'
test_expect_success '-a with -r: cannot repeat' '
	run 2 "$ARCHSCOPE" stat -q -a -r 2 -e task-clock
	contains "$TMP/err" "cannot repeat"
'
test_done
