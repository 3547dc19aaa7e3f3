# A process's whole life is on its record (issue 36 item 9, make's error): an image started by an
# exec through the wrappers begins where the old image's record ended (ARCHSCOPE_STACK_EXEC: the
# exec and the loading are the new image's), which the program's own environment never shows;
# a child started by vfork and exec (no note) begins at its task's birth, within its parent's
# life; the task ends that the sampler sees (PERF_RECORD_EXIT) extend the records (u-scale
# task_ends_extend_the_records).
. "$(dirname "$0")/lib.sh"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
EX=$(dirname "$ARCHSCOPE")
LIB=$EX/libarchscope-preload.so
[ -f "$LIB" ] || skip "needs libarchscope-preload.so beside $ARCHSCOPE"
[ -x /bin/sh ] && [ -x /usr/bin/env ] || skip "needs /bin/sh and env"
mkdir "$TMP/rec" "$TMP/rec2"
ARCHSCOPE_STACK_DIR=$TMP/rec LD_PRELOAD=$LIB /bin/sh -c 'exec /usr/bin/env' >"$TMP/env" 2>&1 ||
	fail "sh -c 'exec env' failed under the library"
grep -q '^ARCHSCOPE_STACK_DIR=' "$TMP/env" || fail "env did not see the record directory"
! grep -q '^ARCHSCOPE_STACK_EXEC' "$TMP/env" || fail "the exec note is in the program's environment"
test_expect_success 'an exec image begins where the old image ended' '
"$PY" - "$TMP/rec" <<'"'"'PY'"'"'
import os, sys
d = sys.argv[1]
imgs = []
for f in os.listdir(d):
    lines = open(os.path.join(d, f)).read().split("\n")
    P = [l.split() for l in lines if l.startswith("P ")][0]
    T = [l.split() for l in lines if l.startswith("T ")]
    imgs.append((int(P[3]), int(P[4]), int(P[1]), T, P[-1]))
imgs.sort()
assert len(imgs) == 2, imgs
(s0, e0, pid0, T0, c0), (s1, e1, pid1, T1, c1) = imgs
assert pid0 == pid1, (pid0, pid1)
main1 = [t for t in T1 if int(t[1]) == pid1][0]
start1 = int(main1[2])
print("sh: %d..%d ns, env: starts %d ns after sh ended (%s, %s)" % (s0, e0, start1 - e0, c0, c1))
assert start1 == s1, (start1, s1)       # the image starts with its main thread
assert start1 <= e0, (start1, e0)       # at the exec, not at its constructor
assert e0 - start1 < 5000000, (e0, start1)  # the old record was written just after the note
PY
'
test_expect_success 'a vfork child begins at its birth, inside its parent' '
ARCHSCOPE_STACK_DIR=$TMP/rec2 LD_PRELOAD=$LIB "$PY" -c "import subprocess; subprocess.run([\"/bin/true\"])" &&
"$PY" - "$TMP/rec2" <<'"'"'PY'"'"'
import os, sys
d = sys.argv[1]
procs = {}
for f in os.listdir(d):
    lines = open(os.path.join(d, f)).read().split("\n")
    P = [l.split() for l in lines if l.startswith("P ")][0]
    T = [l.split() for l in lines if l.startswith("T ")]
    procs[int(P[1])] = (int(P[2]), int(P[3]), int(P[4]), T)
kids = [p for p, v in procs.items() if v[0] in procs]
assert len(kids) == 1, procs.keys()
ppid, s, e, T = procs[kids[0]]
ps, pe = procs[ppid][1], procs[ppid][2]
main = [t for t in T if int(t[1]) == kids[0]][0]
print("true: starts %d ns after python, %d ns before python ends; run %d ns" % (s - ps, pe - s, int(main[4])))
assert ps <= s <= e <= pe, (ps, s, e, pe)
assert int(main[4]) > 0 and int(main[4]) <= e - s + 1000000, main  # the clocks are read one after the other
PY
'
test_done
