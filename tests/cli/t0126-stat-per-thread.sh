# stat --per-thread counts each thread and child process by itself: the tasks of a shell that
# starts two programs, and perl threads touching 1, 2 and 3 times 4 MB (page faults in that ratio).
. "$(dirname "$0")/lib.sh"
cat >"$TMP/check.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["results"]
total = {e["name"]: e for e in d["events"]}["page-faults"]["values"]
for run in (0, 1):
    th = [t for t in d["threads"] if t["run"] == run]
    comms = sorted(t["comm"] for t in th)
    assert len(th) == 3 and "cat" in comms and "ls" in comms, comms
    assert all(t["events"]["page-faults"] > 0 and t["events"]["task-clock"] > 0 for t in th), th
    s = sum(t["events"]["page-faults"] for t in th)
    assert abs(s - total[run]) <= 0.05 * total[run], (s, total[run])   # the parts make the whole
    assert sorted(t["index"] for t in th) == [0, 1, 2]
PY
test_expect_success 'the tasks of a shell that starts two programs, each counted by itself, the parts making the whole' '
	run 0 "$ARCHSCOPE" stat -q -r 2 --per-thread --json -o "$TMP/j.json" -e page-faults,task-clock -- sh -c "cat /dev/null; ls / >/dev/null"
	python3 "$TMP/check.py" "$TMP/j.json" || fail "per-thread tasks"
	contains "$TMP/j.json" '\''"threads"'\''
'
test_expect_success 'perl threads touching 1, 2 and 3 times 4 MB: page faults in that ratio' '
	perl -Mthreads -e 1 2>/dev/null || skip "perl has no threads"
	run 0 "$ARCHSCOPE" stat -q -r 1 --per-thread --json -o "$TMP/j.json" -e page-faults -- perl -Mthreads -e \
		'\''my @t = map { my $n = $_; threads->create(sub { my $x = "a" x ($n * 4000000); length $x }) } 1 .. 3; $_->join for @t'\''
	python3 - "$TMP/j.json" <<-\PY || fail "perl threads"
	import json, sys
	d = json.load(open(sys.argv[1]))["results"]
	th = sorted((t["index"], t["events"]["page-faults"]) for t in d["threads"])
	assert len(th) == 4, th
	f = [v for i, v in th[1:]]
	# each thread builds a string of n * 4 MB (about 977 faults per 4 MB): 1 : 2 : 3
	assert f[0] > 500 and abs(f[1] / f[0] - 2) < 0.3 and abs(f[2] / f[0] - 3) < 0.45, f
	PY
'
test_done
