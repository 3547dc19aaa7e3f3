# stat --regions runs LIKWID's own C-markerAPI example (Debian's likwid: /usr/share/likwid/examples),
# built against Debian's likwid-marker.h and linked with liblikwid, unchanged: archscope's marker
# library, first in LD_PRELOAD, answers its likwid_marker* calls. The example prints, per thread,
# what LIKWID_MARKER_GET gives (calls and accumulated time) after each of its 10 rounds of a 2 s
# sleep; stat's regions[] must agree with what it printed last in each thread.
. "$(dirname "$0")/lib.sh"
EX=/usr/share/likwid/examples/C-markerAPI.c
test_expect_success LIKWID,GCC,OPENMP_GCC 'the example reports its region with the calls and times it prints itself' '
	[ -r "$EX" ] && [ -r /usr/include/likwid-marker.h ] || skip "needs LIKWID (no $EX or likwid-marker.h; Debian package likwid)"
	gcc -fopenmp -DLIKWID_PERFMON -o "$TMP/C-markerAPI" "$EX" -llikwid -lm 2>"$TMP/cc.err" || { cat "$TMP/cc.err" >&2; fail "cannot build $EX"; }
	OMP_NUM_THREADS=2 run 0 "$ARCHSCOPE" stat -q -r 1 --regions --json -o "$TMP/j.json" -- "$TMP/C-markerAPI"
	contains "$TMP/out" "Thread 1 wakes up again"
	python3 - "$TMP/out" "$TMP/j.json" <<-\PY || fail "regions against the example'"'"'s own output"
	import json, re, sys
	out = open(sys.argv[1]).read()
	calls = sorted(int(c) for c in re.findall(r"The region was called (\d+) times", out))
	times = sorted(float(t) for t in re.findall(r"total measurement time is ([0-9.]+)", out))
	# 2 threads x 10 rounds, each thread printing its running total: the two largest are the finals
	assert len(calls) == 20 and len(times) == 20 and calls[-2:] == [10, 10], calls
	d = json.load(open(sys.argv[2]))["results"]
	assert [r["name"] for r in d["regions"]] == ["example"], d["regions"]
	r = d["regions"][0]
	assert r["threads"] == 2 and r["calls"] == sum(calls[-2:]) and r["unfinished"] == 0, r
	# the same accumulated time as the program printed (%f: 1 us), each thread at least 10 x 2 s asleep
	assert abs(r["time_s"] - sum(times[-2:])) < 1e-4, (r["time_s"], times[-2:])
	assert min(times[-2:]) >= 20.0, times
	assert r["events"]["task-clock"] < 0.5e9 and r["events"]["context-switches"] >= 20, r["events"]
	assert d["region_marks"]["records"] == 1 and d["region_marks"]["unmatched"] == 0, d["region_marks"]
	PY
'
test_done
