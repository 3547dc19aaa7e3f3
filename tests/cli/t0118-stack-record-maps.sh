# The preload library's record lists each image's executable mappings ("M start end offset path")
# for archscope to turn sampled and call-site addresses into code and file:line. At a normal exit
# it takes them from the loader's list (dl_iterate_phdr: reading /proc/self/maps cost 40-200 us
# an image in a KVM guest), elsewhere (_exit, exec, a forked child) from /proc/self/maps. Both
# must list what the kernel lists: a Python that loads extension modules with dlopen prints its
# own /proc/self/maps last thing, and every file-backed executable mapping there must be an M
# line of its record with the same start, end and offset (paths compared as real paths: the
# loader keeps a library's name as found, /lib/.../libc.so.6, the kernel the file's), and no M line
# may be anything else. Then the same through _exit (os._exit: the /proc path).
. "$(dirname "$0")/lib.sh"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
LIB=$(dirname "$ARCHSCOPE")/libarchscope-preload.so
[ -f "$LIB" ] || skip "needs the preload library beside $ARCHSCOPE"
check() { # check NAME EXIT: run Python under the library, compare its record with its maps
	rm -rf "$TMP/rec" && mkdir "$TMP/rec"
	ARCHSCOPE_STACK_DIR=$TMP/rec LD_PRELOAD=$LIB "$PY" -c "
import json, ssl, decimal, sys, os
sys.stdout.write('pid %d\\n' % os.getpid() + open('/proc/self/maps').read()); sys.stdout.flush()
$2" >"$TMP/maps" 2>"$TMP/err" || return 1
	"$PY" - "$TMP/maps" "$TMP/rec" "$1" <<'PY'
import os, sys
maps, rec, name = sys.argv[1:]
want, pid = set(), open(maps).readline().split()[1]
for line in open(maps):
    f = line.split()
    if len(f) >= 6 and f[1][2] == "x" and f[5].startswith("/"):
        a, b = f[0].split("-")
        want.add((int(a, 16), int(b, 16), int(f[2], 16), os.path.realpath(f[5])))
# the process's last image (rec.PID.START): a version manager's shell may have exec'd into it
last = max((x for x in os.listdir(rec) if x.split(".")[1] == pid), key=lambda x: int(x.split(".")[2]))
got = set()
for r in [os.path.join(rec, last)]:
    lines = open(r).read().splitlines()
    for l in lines:
        if l.startswith("M "):
            _, a, b, off, path = l.split(" ", 4)
            got.add((int(a, 16), int(b, 16), int(off, 16), os.path.realpath(path)))
print("%s: %d executable mappings in /proc/self/maps, %d M lines" % (name, len(want), len(got)))
for m in sorted(want - got):
    print("  missing from the record: %x-%x +%x %s" % m)
for m in sorted(got - want):
    print("  not a mapping of the process: %x-%x +%x %s" % m)
assert len(want) >= 5, "too few mappings to tell"
sys.exit(want != got)
PY
}
test_expect_success 'a normal exit: the loader list matches /proc/self/maps' 'check exit "sys.exit(0)"'
test_expect_success '_exit: /proc/self/maps' 'check _exit "os._exit(0)"'
test_done
