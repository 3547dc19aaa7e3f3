#!/usr/bin/env bash
# Overhead of whatif's machinery (issue 49 item 5: at most 5 % of the run time at zero virtual
# speedup), on the real programs of bench/stack-real.sh that are installed (pigz, zstd, xz, sort,
# make -j over archscope's own common/ and analysis/ sources). Per program, ROUNDS pairs of a plain
# run and an instrumented run, in an order drawn for each pair. The instrumented run is a whatif
# delay run at line speedup 0 with a site placed: the preload library with $ARCHSCOPE_WHATIF set as
# whatif sets it (a fresh shared delay file per run, 1 ms sampling period, the site = the whole
# executable segment of the program's own binary, so every sample in it takes the site path: the
# range check, a zero delay, the pay check; the run-queue wait is read only above line speedup 0),
# and the stack's records the library writes. Each run's wall time is timed by Python around
# fork/exec (the same for both sides), its CPU time (user + system of the whole tree) from the children's rusage; the shared
# file's sample counts after each instrumented run show that the machinery ran.
# Prints per program: median plain and instrumented wall times, the overhead (median of the pairs'
# ratios - 1) with its 90 % bootstrap interval (pairs resampled) and the min..max of the ratios, the
# CPU-time overhead (steadier than wall time under other load), the load average before and after,
# and a verdict against 5 %: "meets" when the interval's top is under it, "over" when its bottom is
# above, else "not resolved" (this machine's noise is wider than the question).
#   bench/whatif-overhead.sh [ROUNDS] [PROGRAM...]    (ROUNDS default 9; a few minutes)
set -uo pipefail
cd "$(dirname "$0")/.."
A=${ARCHSCOPE:-build/archscope}
B=$(dirname "$A")
PRE=$(realpath "$B/libarchscope-preload.so" 2>/dev/null)
[ -x "$A" ] && [ -f "$PRE" ] || { echo "build first (cmake + ninja)" >&2; exit 1; }
R=${1:-9}
shift || true
tmp=$(mktemp -d /tmp/whatif-overhead.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C

# the shared file's size and magic, and a binary's executable segment as file offsets, from the
# library's own header (src/scale/preload/whatif.h), so this script never copies its layout
cat >"$tmp/layout.c" <<'C'
#include <elf.h>
#include <stdio.h>
#include "scale/preload/whatif.h"
int main(int argc, char **argv)
{
	if (argc < 2)
		return printf("%zu %llu %zu %zu %zu\n", sizeof(struct whatif_shared), (unsigned long long)WHATIF_MAGIC,
			      offsetof(struct whatif_shared, samples), offsetof(struct whatif_shared, site_samples),
			      offsetof(struct whatif_shared, processes)) < 0;
	FILE *f = fopen(argv[1], "rb");
	Elf64_Ehdr eh;
	if (!f || fread(&eh, sizeof(eh), 1, f) != 1)
		return 1;
	for (int i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;
		if (fseek(f, (long)(eh.e_phoff + (Elf64_Off)i * eh.e_phentsize), SEEK_SET) || fread(&ph, sizeof(ph), 1, f) != 1)
			return 1;
		if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X))
			return printf("%llx-%llx\n", (unsigned long long)ph.p_offset, (unsigned long long)(ph.p_offset + ph.p_filesz)) < 0;
	}
	return 1;
}
C
gcc -O1 -Isrc -o "$tmp/layout" "$tmp/layout.c" || { echo "cannot build the layout helper" >&2; exit 1; }

# inputs as bench/stack-real.sh makes them, half the size (24 and 4 MiB): text of a 4096-word vocabulary (seeded), a C build
python3 bench/prose.py "$tmp/text" 24 36
head -c $((4 << 20)) "$tmp/text" >"$tmp/text4"
mkdir -p "$tmp/obj" "$tmp/rec"
{
	echo "SRC := $(ls src/common/*.c src/analysis/*.c | tr '\n' ' ')"
	echo 'OBJ := $(patsubst %.c,'"$tmp"'/obj/%.o,$(notdir $(SRC)))'
	echo 'all: $(OBJ)'
	echo 'vpath %.c src/common src/analysis'
	echo "$tmp/obj/%.o: %.c"
	printf '\t@gcc -O2 -std=c11 -D_GNU_SOURCE -Isrc -c $< -o $@\n'
} >"$tmp/Makefile"
N=$(python3 -c 'import os; print(len(os.sched_getaffinity(0)))')

echo "# bench/whatif-overhead.sh $R on $N CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), $(date -u +%Y-%m-%dT%H:%MZ)"
echo "# load average now: $(cut -d" " -f1-3 /proc/loadavg) on $N CPUs (a shared machine: its other load is in every wall time; the CPU times are steadier)"
echo "# plain runs against whatif's delay runs at line speedup 0 (site: the program's executable segment), interleaved pairs"

# one program: NAME SITE_BINARY COMMAND...
one() {
	local name=$1 bin
	case " $ONLY " in "  ") ;; *" $name "*) ;; *) return ;; esac
	bin=$(realpath "$(command -v "$2")")
	shift 2
	local range
	range=$("$tmp/layout" "$bin") || { printf '%-8s skipped: no executable segment in %s\n' "$name" "$bin"; return; }
	python3 - "$tmp" "$PRE" "$R" "$name" "$range" "$bin" "$("$tmp/layout")" "$@" <<'PY'
import glob, os, random, statistics, struct, subprocess, sys, time
tmp, pre, R, name, rng_, binary, layout = sys.argv[1:8]
cmd = sys.argv[8:]
R = int(R)
size, magic, off_samples, off_site, off_proc = (int(x) for x in layout.split())
shm = tmp + "/shm"
def clean():
    for f in glob.glob(tmp + "/obj/*.o") + glob.glob(tmp + "/rec/*"):
        os.unlink(f)
def timed(env):
    # wall time around fork/exec and the tree's CPU time (user + system)
    clean()
    r0 = os.times()
    out, err = open(tmp + "/run.out", "wb"), open(tmp + "/run.err", "wb")
    t = time.perf_counter()
    p = subprocess.run(cmd, stdout=out, stderr=err, env=env)
    wall = time.perf_counter() - t
    r1 = os.times()
    if p.returncode != 0:
        sys.exit(print("%-8s failed: exit %d: %s" % (name, p.returncode, open(tmp + "/run.err").read()[-200:])))
    return wall, (r1.children_user - r0.children_user) + (r1.children_system - r0.children_system)
def instrumented():
    with open(shm, "wb") as f:
        f.write(struct.pack("<Q", magic) + bytes(size - 8))
    env = dict(os.environ, LD_PRELOAD=pre, ARCHSCOPE_STACK_DIR=tmp + "/rec",
               ARCHSCOPE_WHATIF="d;%s;1000000;0.0000;%s;%s" % (shm, rng_, binary))
    w = timed(env)
    raw = open(shm, "rb").read()
    s, site, procs = (struct.unpack_from("<Q", raw, o)[0] for o in (off_samples, off_site, off_proc))
    return w, (s, site, procs)
load0 = open("/proc/loadavg").read().split()[0]
plain, inst, seen = [], [], []
rng = random.Random(49)
timed(dict(os.environ))  # a warm-up run: the input in the page cache for both sides
for _ in range(R):
    first = rng.randrange(2)
    for i in (0, 1):
        if i == first:
            plain.append(timed(dict(os.environ)))
        else:
            w, c = instrumented()
            inst.append(w)
            seen.append(c)
load1 = open("/proc/loadavg").read().split()[0]
wr = [i[0] / p[0] for p, i in zip(plain, inst)]
cr = [i[1] / p[1] for p, i in zip(plain, inst) if p[1] > 0]
boot = sorted(statistics.median(rng.choice(wr) for _ in wr) for _ in range(2000))
lo, hi = boot[100] - 1, boot[1899] - 1
med = statistics.median(wr) - 1
verdict = "meets 5 %" if hi <= 0.05 else "over 5 %" if lo > 0.05 else "not resolved (noise wider than 5 %)"
print("%-8s plain %7.3f s  whatif %7.3f s  overhead %+6.1f %% (90 %% interval %+.1f .. %+.1f %%; pairs %+.1f .. %+.1f %%)  "
      "CPU time %+6.1f %%  load %s/%s  %s" % (
          name, statistics.median(p[0] for p in plain), statistics.median(i[0] for i in inst), 100 * med, 100 * lo, 100 * hi,
          100 * (min(wr) - 1), 100 * (max(wr) - 1), 100 * (statistics.median(cr) - 1) if cr else float("nan"),
          load0, load1, verdict))
print("         %s; samples per instrumented run (median): %d, in the site %d, processes %d" % (
    " ".join(cmd).replace(tmp, "$tmp"), statistics.median(s for s, _, _ in seen),
    statistics.median(x for _, x, _ in seen), max(p for _, _, p in seen)))
PY
}

ONLY="$*"
one pigz pigz pigz -p "$N" -6 -c "$tmp/text"
one zstd zstd zstd -q -T"$N" -9 -c "$tmp/text"
one xz xz xz -T"$N" -2 -c "$tmp/text4"
one sort sort sort --parallel="$N" -S 512M "$tmp/text" -o /dev/null
one make make make -s -j"$N" -f "$tmp/Makefile"
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
