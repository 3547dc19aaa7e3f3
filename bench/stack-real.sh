#!/usr/bin/env bash
# archscope stack on programs nobody here wrote (issue 36 item 9): pigz, zstd, xz, sort, sysbench
# (cpu with a fixed number of events, cpu for a fixed time, mutex), stress-ng (one process per
# worker), make -j (a C build: a process per compiler), and an OpenMP program (a Jacobi sweep,
# bench/stack-workloads/omp-jacobi.c) built with gcc (libgomp) and with clang (libomp). For each:
# the actual speedup S = T1/TN and the estimated one S^ from the N-thread run alone, |S^ - S| / N,
# the dominant delimiter with its largest part, the class, whether the work grows with N (then
# the scaled speedup), the other load (foreign_load) and the overhead: the median wall time of the
# N-thread runs under `stack` against that of plain runs of the same command, interleaved. And
# what the plain runs say without archscope: their busy CPUs at N (CPU time / wall time, from the
# children's rusage: what a perfect tier 0 stack would call S^ plus spinning, which is on the
# CPU too), |S^ + spinning - busy| / N (the stack's own accounting error), and the work ratio CPU_N / CPU_1 (a program whose work changes with N, or
# whose 1-thread run is not one busy CPU, has |S^ - S| of that much, which no tier 0 account sees).
#   flock /tmp/archscope-quiet.lock nice -n 0 bench/stack-real.sh [R] [PROGRAM...]
# OVERHEAD_ROUNDS=K adds, per program, K interleaved pairs of a plain run and a `stack -r 1` run
# and the median of their ratios with a 90 % bootstrap interval (overhead_pairs below).
# R repetitions (default 3), N = the CPUs this process may use. A program that is not installed
# is installed with apt-get when running as root and ARCHSCOPE_BENCH_INSTALL=1, else skipped with
# a line that says so. The load average is printed before and after each program: on a shared
# machine the other programs' load is in every number (foreign_load shows how much).
set -uo pipefail
cd "$(dirname "$0")/.."
A=${ARCHSCOPE:-build/archscope}
[ -x "$A" ] || { echo "build first: bash scripts/setup.sh" >&2; exit 1; }
R=${1:-3}
shift || true
ONLY=" $* "
N=$(python3 -c 'import os; print(len(os.sched_getaffinity(0)))')
export N
tmp=$(mktemp -d /tmp/stack-real.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C

have() { # have PROGRAM PACKAGE: installed, or installed now, or a skip line
	command -v "$1" >/dev/null && return 0
	if [ "$(id -u)" -eq 0 ] && [ "${ARCHSCOPE_BENCH_INSTALL:-0}" = 1 ]; then
		apt-get install -y -qq --no-install-recommends "$2" >/dev/null 2>&1 && command -v "$1" >/dev/null && return 0
	fi
	printf '%-16s skipped: %s is not installed (Debian package %s; ARCHSCOPE_BENCH_INSTALL=1 as root installs it)\n' "$3" "$1" "$2"
	return 1
}

# inputs: 48 MiB of text made of a 4096-word vocabulary (compressible like prose), seeded
python3 bench/prose.py "$tmp/text" 48 36
head -c $((16 << 20)) "$tmp/text" >"$tmp/text16"
# a C build: archscope's own common/ and analysis/ sources, one object each
mkdir -p "$tmp/obj"
{
	echo "SRC := $(ls src/common/*.c src/analysis/*.c | tr '\n' ' ')"
	echo 'OBJ := $(patsubst %.c,'"$tmp"'/obj/%.o,$(notdir $(SRC)))'
	echo 'all: $(OBJ)'
	echo 'vpath %.c src/common src/analysis'
	echo "$tmp/obj/%.o: %.c"
	printf '\t@gcc -O2 -std=c11 -D_GNU_SOURCE -Isrc -c $< -o $@\n'
} >"$tmp/Makefile"
omp_src=bench/stack-workloads/omp-jacobi.c
have_gcc_omp=0 have_clang_omp=0
gcc -O2 -fopenmp -o "$tmp/jacobi-gcc" $omp_src -lm 2>/dev/null && have_gcc_omp=1
clang -O2 -fopenmp -o "$tmp/jacobi-clang" $omp_src -lm 2>/dev/null && have_clang_omp=1

echo "# bench/stack-real.sh $R on $N CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), $(date -u +%Y-%m-%dT%H:%MZ)"
printf '%-16s %6s %6s %7s %-26s %-9s %8s %6s %7s %6s %7s  %s\n' program S S^ err/N "dominant (largest part)" class overhead busy S^-busy work load notes

# one plain run: THREADS COMMAND...: "WALL_S:CPU_S" (CPU: the children's rusage, user + system).
# Its output goes to files in $tmp, as `stack` writes the program's output to files in its
# temporary directory (on the same file system): pigz's 15 MB to /dev/null instead made `stack`
# look 3 % slower than it is.
plain_run() {
	python3 -c '
import os, resource, subprocess, sys, time
out, err = open(sys.argv[1] + "/plain.out", "wb"), open(sys.argv[1] + "/plain.err", "wb")
r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
t = time.perf_counter()
subprocess.run(sys.argv[3:], stdout=out, stderr=err, env=dict(os.environ, OMP_NUM_THREADS=sys.argv[2]))
t = time.perf_counter() - t
r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.6f:%.6f" % (t, (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)))' "$tmp" "$@"
	rm -f "$tmp/plain.out" "$tmp/plain.err"
}

# one program: NAME COMMAND... ({T} is the thread count); a clean command for each run
bench_one() {
	local name=$1
	shift
	case "$ONLY" in "  ") ;; *" $name "*) ;; *) return ;; esac
	local load0
	load0=$(cut -d' ' -f1 /proc/loadavg)
	# plain runs of the N-thread command, interleaved with the stack runs (the plain ones first
	# in each pair: stack's own 1-thread runs sit between)
	local plain=() plain1=() i
	local cmd=() cmd1=()
	for a in "$@"; do cmd+=("${a//\{T\}/$N}"); cmd1+=("${a//\{T\}/1}"); done
	for ((i = 0; i < R; i++)); do
		find "$tmp/obj" -name '*.o' -delete 2>/dev/null
		plain+=("$(plain_run "$N" "${cmd[@]}")")
		find "$tmp/obj" -name '*.o' -delete 2>/dev/null
		plain1+=("$(plain_run 1 "${cmd1[@]}")")
	done
	find "$tmp/obj" -name '*.o' -delete 2>/dev/null
	# make rebuilds nothing once the objects exist: each stack run starts from none (a phony
	# clean would be part of the measured command)
	if [ "$name" = make ]; then
		set -- sh -c "rm -f $tmp/obj/*.o; exec make -s -j\$0 -f $tmp/Makefile" "{T}"
	fi
	"$A" stack -q -t "$N" -r "$R" --json -- "$@" >"$tmp/$name.json" 2>"$tmp/$name.err"
	local rc=$?
	if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
		printf '%-16s stack exited %d: %s\n' "$name" $rc "$(tail -1 "$tmp/$name.err")"
		return
	fi
	N=$N python3 - "$tmp/$name.json" "$name" "$load0" "${plain1[*]}" "${plain[@]}" <<'PY'
import json, os, statistics, sys
path, name, load0 = sys.argv[1], sys.argv[2], sys.argv[3]
runs1 = [tuple(float(v) for v in x.split(":")) for x in sys.argv[4].split()]
runs = [tuple(float(v) for v in x.split(":")) for x in sys.argv[5:]]
plain = [w for w, c in runs]
n = int(os.environ["N"])
busy = statistics.median(c / w for w, c in runs)
work = statistics.median(c for w, c in runs) / statistics.median(c for w, c in runs1)
res = json.load(open(path))["results"]
r = res["runs"][-1]
c, b = r["components"], r["by_primitive"]
dom = r["dominant"]
if dom in ("spinning", "yielding"):
    spin = dom == "spinning"
    parts = {k: v for k, v in b.items() if (k in ("pthread_spin", "user_spin", "mpi", "barrier_spin", "taskwait_spin", "lock_spin")) == spin}
    dom += " (%s)" % max(parts, key=parts.get)
notes = []
if "speedup_serial" in r:
    notes.append("1-thread run kept %.2f CPUs busy: S over its work on one CPU %.2f" % (res["t1_busy_cpus"], r["speedup_serial"]))
if "speedup_scaled" in r:
    notes.append("work grows %.2fx: scaled S %.2f" % (r["work_ratio"], r["speedup_scaled"]))
if c.get("foreign_load", 0) > 0.005:
    notes.append("foreign_load %.2f" % c["foreign_load"])
if r.get("processes", 1) > 1:
    notes.append("%d processes" % r["processes"])
if r.get("rejected"):
    notes.append("%d runs rejected" % r["rejected"]["runs"])
for x in r["notes"]:
    if "exited" in x or "crashed" in x or "no record" in x:
        notes.append(x)
top = [p for p in r["sites"][:1]]
if top:
    notes.append("site %s" % top[0]["where"])
# overhead: the stack's N-thread wall time (its median run) against the plain runs' median
over = r["wall_s"] / statistics.median(plain)
load1 = open("/proc/loadavg").read().split()[0]
print("%-16s %6.2f %6.2f %6.1f%% %-26s %-9s %8.3f %6.2f %6.1f%% %6.3f %7s  %s" % (name, r["speedup_actual"], r["speedup_estimated"],
      100 * r["error"], dom, r["class"], over, busy, 100 * abs(r["speedup_estimated"] + c.get("spinning", 0) - busy) / n, work,
      load0 + "/" + load1, "; ".join(notes)))
print("  components", {k: round(v, 3) for k, v in c.items() if abs(v) > 0.005})
PY
	overhead_pairs "$name" "$@"
}

# OVERHEAD_ROUNDS=K (default 0: none): K pairs of `stack -t N -r 1` and a plain 1-thread run
# followed by a plain N-thread run, the same sequence as stack's, interleaved in an order drawn
# for each pair; each pair's ratio the stack's N-thread wall time over the plain N-thread run's.
# The plain side runs the 1-thread run too because what a run leaves behind slows the next one:
# on make -j2 a plain run after the 1-thread build was 1.014-1.019 x slower than one after
# anything else (25 interleaved rounds; most likely the kernel writing back the 1-thread
# build's objects), which pairs without it counted as stack's overhead. Prints the median ratio
# with a 90 % bootstrap interval (pairs resampled), what this machine's noise lets the overhead
# be told from 1, and the ratio of the fastest runs of each side (other load only ever adds
# time: the least disturbed runs' ratio).
overhead_pairs() {
	local name=$1 k pairs=()
	shift
	[ "${OVERHEAD_ROUNDS:-0}" -gt 0 ] || return 0
	local cmd=() cmd1=()
	for a in "$@"; do cmd+=("${a//\{T\}/$N}") cmd1+=("${a//\{T\}/1}"); done
	for ((k = 0; k < OVERHEAD_ROUNDS; k++)); do
		local p= first=$((RANDOM % 2)) i
		for i in 0 1; do
			find "$tmp/obj" -name '*.o' -delete 2>/dev/null
			if [ $i = $first ]; then
				plain_run 1 "${cmd1[@]}" >/dev/null
				find "$tmp/obj" -name '*.o' -delete 2>/dev/null
				p=$(plain_run "$N" "${cmd[@]}")
			else
				"$A" stack -q -t "$N" -r 1 --json -- "$@" >"$tmp/$name.o.json" 2>/dev/null || rm -f "$tmp/$name.o.json"
			fi
		done
		[ -s "$tmp/$name.o.json" ] || continue
		pairs+=("$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["results"]["runs"][-1]; print("%.6f:%s" % (r["wall_s"], sys.argv[2].split(":")[0]))' "$tmp/$name.o.json" "$p")")
	done
	python3 - "$name" "${pairs[@]}" <<'PY'
import random, statistics, sys
name = sys.argv[1]
pairs = [tuple(float(x) for x in a.split(":")) for a in sys.argv[2:]]
if not pairs:
    sys.exit(print("  overhead pairs: none ran"))
v = [s / p for s, p in pairs]
rng = random.Random(9)
boot = sorted(statistics.median(rng.choice(v) for _ in v) for _ in range(2000))
print("  overhead %d pairs: median %.3f (90 %% interval %.3f .. %.3f; min %.3f, max %.3f); fastest runs %.3f" % (
    len(v), statistics.median(v), boot[100], boot[1899], min(v), max(v), min(s for s, p in pairs) / min(p for s, p in pairs)))
PY
}

have pigz pigz pigz && bench_one pigz pigz -p "{T}" -6 -c "$tmp/text"
have zstd zstd zstd && bench_one zstd zstd -q -T"{T}" -3 -c "$tmp/text"
have xz xz-utils xz && bench_one xz xz -T"{T}" -2 -c "$tmp/text16"
have sort coreutils sort && bench_one sort sort --parallel="{T}" -S 512M "$tmp/text" -o /dev/null
if have sysbench sysbench sysbench; then
	bench_one sysbench-cpu sysbench cpu --threads="{T}" --events=4000 --time=0 run
	bench_one sysbench-time sysbench cpu --threads="{T}" --time=3 run
	bench_one sysbench-mutex sysbench mutex --threads="{T}" --mutex-locks=20000 run
fi
have stress-ng stress-ng stress-ng && bench_one stress-ng stress-ng --cpu "{T}" --cpu-ops 3000 --quiet
have make make make && bench_one make make -s -j"{T}" -f "$tmp/Makefile"
[ $have_gcc_omp = 1 ] && bench_one omp-gcc "$tmp/jacobi-gcc" 1000
[ $have_gcc_omp = 1 ] || echo "omp-gcc          skipped: gcc -fopenmp does not build $omp_src"
[ $have_clang_omp = 1 ] && bench_one omp-clang "$tmp/jacobi-clang" 1000
[ $have_clang_omp = 1 ] || echo "omp-clang        skipped: clang -fopenmp does not build $omp_src (Debian package libomp-dev)"
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
