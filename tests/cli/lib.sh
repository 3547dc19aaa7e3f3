# Helpers for CLI tests: $ARCHSCOPE is the binary, $ROOT the source tree. Exit 0 pass, 77 skip.
# A script that checks several independent cases runs each as a case (git's test_expect_success and
# test_done), so that it reports every case and a count, not one verdict at the first failure:
#   test_expect_success [PREREQS] 'what is checked' 'shell code'
#     runs the code in a subshell with these helpers (stdin /dev/null), and prints "ok N - what",
#     "ok N - what # skip REASON", or "not ok N - what" with the last 20 lines the code printed
#     (stdout and stderr) indented under it. `fail` (so `run`, `contains`) ends that case only;
#     `skip` or `require` in the code skips it; PREREQS (as `require`, comma-separated) skips it
#     when one is missing. The case passes when its last command succeeds and nothing called
#     `fail`: write each check as `run`, `contains` or `TEST || fail "why"`, as elsewhere here.
#     A variable a case sets, or its `cd`, does not reach the next case: set up shared files first.
#   test_expect_failure: the same for a known breakage: "not ok N - what # TODO known breakage"
#     while it fails, "ok N - what # TODO known breakage vanished" once it passes; not counted failed.
#   test_done: last, prints "# N cases, N failed" (", N skipped" when some were) and exits 1 when a
#     case failed or none ran, 77 ("skip: all N cases skipped: REASON") when every case was skipped,
#     else 0. Cases ran but the script ends without test_done: exit 1. scripts/test.sh adds the counts.
#   ARCHSCOPE_TEST_VERBOSE=1 prints what every case printed.
set -u
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "skip: $*"; exit 77; }
TMP=$(mktemp -d /tmp/archscope-t.XXXXXX)
TEST_N=0 TEST_FAILED=0 TEST_SKIPPED=0 TEST_BROKEN=0 TEST_SKIP_WHY= TEST_DONE=
lib_exit_() {
	local rc=$?
	rm -rf "$TMP"
	if [ "$rc" -eq 0 ] && [ "$TEST_N" -gt 0 ] && [ -z "$TEST_DONE" ]; then
		echo "bug in the test script: $TEST_N cases ran and it ended without test_done" >&2
		exit 1
	fi
}
trap lib_exit_ EXIT
# run CODE CMD...: runs CMD, stdout in $TMP/out, stderr in $TMP/err, fails unless it exits CODE.
run() {
	local want=$1; shift
	"$@" >"$TMP/out" 2>"$TMP/err"; local rc=$?
	[ "$rc" -eq "$want" ] || { cat "$TMP/err" >&2; fail "'$*' exited $rc, expected $want"; }
}
# json_get EXPR [FILE]: evaluates a python expression on the JSON in FILE (default $TMP/out) bound to d.
json_get() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($1)" "${2:-$TMP/out}"; }
contains() { grep -q -- "$2" "$1" || { echo "--- $1:" >&2; head -n 30 "$1" >&2; fail "'$2' not in $1"; }; }
# test_case_ MODE [PREREQS] WHAT CODE: one case of test_expect_success (MODE success) or
# test_expect_failure (MODE failure); see the header.
test_case_() {
	# the names here are the harness's own (test_*_): a case sees the script's variables, not these
	local test_mode_=$1 test_prereqs_= test_what_ test_code_ test_rc_=0 test_p_ test_why_= test_log_=$TMP/.case.log
	shift
	[ $# -ne 3 ] || { test_prereqs_=$1; shift; }
	[ $# -eq 2 ] || { echo "bug in the test script: test_expect_$test_mode_ takes [PREREQS] WHAT CODE, not $# arguments" >&2; exit 1; }
	test_what_=$1 test_code_=$2
	TEST_N=$((TEST_N + 1))
	: >"$test_log_"
	for test_p_ in ${test_prereqs_//,/ }; do
		prereq "$test_p_" || { test_why_="needs $test_p_ ($PREREQ_WHY)"; break; }
	done
	if [ -z "$test_why_" ]; then
		(eval "$test_code_") </dev/null >"$test_log_" 2>&1
		test_rc_=$?
		if [ "$test_rc_" -eq 77 ]; then
			test_why_=$(sed -n 's/^skip: //p' "$test_log_" | tail -n 1)
			test_why_=${test_why_:-skipped}
		fi
	fi
	if [ -n "$test_why_" ]; then
		TEST_SKIPPED=$((TEST_SKIPPED + 1))
		TEST_SKIP_WHY=${TEST_SKIP_WHY:-$test_why_}
		echo "ok $TEST_N - $test_what_ # skip $test_why_"
	elif [ "$test_mode_" = failure ]; then
		if [ "$test_rc_" -eq 0 ]; then
			echo "ok $TEST_N - $test_what_ # TODO known breakage vanished"
		else
			TEST_BROKEN=$((TEST_BROKEN + 1))
			echo "not ok $TEST_N - $test_what_ # TODO known breakage"
		fi
	elif [ "$test_rc_" -eq 0 ]; then
		echo "ok $TEST_N - $test_what_"
	else
		TEST_FAILED=$((TEST_FAILED + 1))
		echo "not ok $TEST_N - $test_what_"
		if [ -s "$test_log_" ]; then
			tail -n 20 "$test_log_" | sed 's/^/    /'
		else
			echo "    (no output; the code's last command exited $test_rc_)"
		fi
		return 0
	fi
	[ -z "${ARCHSCOPE_TEST_VERBOSE:-}" ] || sed 's/^/    /' "$test_log_"
	return 0
}
test_expect_success() { test_case_ success "$@"; }
test_expect_failure() { test_case_ failure "$@"; }
test_done() {
	local test_s_="# $TEST_N cases, $TEST_FAILED failed"
	[ "$TEST_SKIPPED" -eq 0 ] || test_s_="$test_s_, $TEST_SKIPPED skipped"
	[ "$TEST_BROKEN" -eq 0 ] || test_s_="$test_s_, $TEST_BROKEN known breakages"
	echo "$test_s_"
	TEST_DONE=1
	[ "$TEST_N" -gt 0 ] || { echo "FAIL: no case ran" >&2; exit 1; }
	[ "$TEST_FAILED" -eq 0 ] || exit 1
	[ "$TEST_SKIPPED" -lt "$TEST_N" ] || skip "all $TEST_N cases skipped: $TEST_SKIP_WHY"
	exit 0
}
export ARCHSCOPE_CACHE_DIR="$TMP/cache" # a test starts with an empty parse cache and leaves none behind

# Prerequisites (git's test_have_prereq): `prereq NAME` is true when this machine has NAME and
# leaves the reason it has not in $PREREQ_WHY; `require NAME...` skips the test (exit 77) with
# "skip: needs NAME (why)" at the first one missing. scripts/test.sh counts these lines.
# ARCHSCOPE_TEST_WITHOUT="NAME..." makes prereq say no, to try a test's skip path.
#   PMU       hardware counters: perf_event_open of the instructions counter counts
#   NUMA      more than one NUMA node
#   LLVM_MCA  llvm-mca-19 (or llvm-mca) in PATH
#   GCC       gcc in PATH (model compiles kernels with it)
#   ROOT      running as uid 0
#   LIKWID    likwid-bench in PATH
#   LIBCLANG  the libclang model loads: $ARCHSCOPE_LIBCLANG, else the one the build recorded
#   SPECS     tests/specs/cpus.tsv has a row for this CPU's vendor/family/model (sets $SPECS_ROW)
#   SYSFS_CACHES  /sys/devices/system/cpu/cpu0/cache lists a data or unified cache with its size
#   MEMINFO   (unit tests only) /proc/meminfo gives MemAvailable
#   MPI       Open MPI's mpirun in PATH and archscope-cluster beside $ARCHSCOPE (built when CMake finds
#             Open MPI; Debian openmpi-bin libopenmpi-dev)
#   NETNS     nodes as network, UTS and mount namespaces joined by veth pairs on a bridge can be made
#             here (root, iproute2, util-linux unshare; tests/cli/mpi.sh: netns_up)
#   QUIET     the 1-minute load average is below 3/4 of the CPUs this process may use (timing
#             answers compared with published specs only hold on a machine that is not busy)
#   MOUNT_NS  a private mount namespace can be made (unshare -m as root, unshare -rm otherwise),
#             to hide the source and build trees from an installed archscope
#   POWER_PMU the kernel offers an energy PMU with events (/sys/bus/event_source/devices/power/events:
#             RAPL on bare metal; virtual machines usually have none)
#   DPKG      dpkg-deb and dpkg-shlibdeps (Debian package dpkg-dev): the Debian package is built
#   LINTIAN   Debian's package checker (Debian package lintian)
#   PANDOC    the build made the manual pages (pandoc was found when it was configured)
#   CHROMIUM  a headless Chromium (Debian package chromium) to load the HTML report
#   MPIRUN    mpicc builds an MPI program and mpirun starts 2 ranks of it on this node (Debian
#             openmpi-bin, libopenmpi-dev); as root with --allow-run-as-root
#   OPENMP_GCC, OPENMP_CLANG  gcc -fopenmp (libgomp), clang -fopenmp (libomp: libomp-dev) build
#             and run an OpenMP program
#   COZ       cc builds a program with Coz's coz.h (Debian coz-profiler), as whatif's users build theirs
PREREQ_WHY=
prereq() {
	PREREQ_WHY=
	case " ${ARCHSCOPE_TEST_WITHOUT:-} " in *" $1 "*) PREREQ_WHY="ARCHSCOPE_TEST_WITHOUT names it"; return 1 ;; esac
	case $1 in
	PMU) prereq_pmu ;;
	NUMA)
		local n; n=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
		[ "$n" -gt 1 ] || { PREREQ_WHY="only $n NUMA node in /sys/devices/system/node"; return 1; } ;;
	LLVM_MCA)
		command -v llvm-mca-19 >/dev/null || command -v llvm-mca >/dev/null ||
			{ PREREQ_WHY="no llvm-mca in PATH; Debian package llvm-19"; return 1; } ;;
	GCC) command -v gcc >/dev/null || { PREREQ_WHY="no gcc in PATH"; return 1; } ;;
	ROOT) [ "$(id -u)" -eq 0 ] || { PREREQ_WHY="running as uid $(id -u)"; return 1; } ;;
	LIKWID) command -v likwid-bench >/dev/null || { PREREQ_WHY="no likwid-bench in PATH; Debian package likwid"; return 1; } ;;
	LIBCLANG) prereq_libclang ;;
	SPECS) prereq_specs ;;
	QUIET) prereq_quiet ;;
	SYSFS_CACHES)
		grep -qsvx Instruction /sys/devices/system/cpu/cpu0/cache/index*/type &&
			ls /sys/devices/system/cpu/cpu0/cache/index*/size >/dev/null 2>&1 ||
			{ PREREQ_WHY="no data or unified cache with a size under /sys/devices/system/cpu/cpu0/cache"; return 1; } ;;
	MOUNT_NS)
		unshare -m true 2>/dev/null || unshare -rm true 2>/dev/null ||
			{ PREREQ_WHY="unshare -m and unshare -rm fail: no mount namespaces for this user"; return 1; } ;;
	POWER_PMU) ls /sys/bus/event_source/devices/power/events/energy-* >/dev/null 2>&1 ||
		{ PREREQ_WHY="no energy events in /sys/bus/event_source/devices/power/events (no RAPL PMU: a VM?)"; return 1; } ;;
	DPKG) command -v dpkg-deb >/dev/null && command -v dpkg-shlibdeps >/dev/null ||
		{ PREREQ_WHY="no dpkg-deb or dpkg-shlibdeps in PATH; Debian package dpkg-dev"; return 1; } ;;
	LINTIAN) command -v lintian >/dev/null || { PREREQ_WHY="no lintian in PATH; Debian package lintian"; return 1; } ;;
	PANDOC) [ -f "$(dirname "${ARCHSCOPE:-/nonexistent}")/man/pages.txt" ] ||
		{ PREREQ_WHY="no manual pages in the build: pandoc was not found when it was configured; Debian package pandoc"; return 1; } ;;
	CHROMIUM) command -v chromium >/dev/null || command -v chromium-browser >/dev/null ||
		{ PREREQ_WHY="no chromium in PATH; Debian package chromium"; return 1; } ;;
	MPI) prereq_mpi ;;
	NETNS) prereq_netns ;;
	MPIRUN) prereq_mpirun ;;
	OPENMP_GCC) prereq_openmp gcc ;;
	OPENMP_CLANG) prereq_openmp clang ;;
	COZ) printf '#include <coz.h>\nint main(void) { COZ_PROGRESS; return 0; }\n' | cc -x c -o /dev/null - -ldl 2>/dev/null ||
		{ PREREQ_WHY="cc cannot build a program with coz.h (Debian package coz-profiler)"; return 1; } ;;
	*) fail "unknown prerequisite '$1'" ;;
	esac
}
require() {
	local p
	for p in "$@"; do
		prereq "$p" || skip "needs $p ($PREREQ_WHY)"
	done
}
prereq_pmu() {
	local out
	if command -v perf >/dev/null; then
		out=$(perf stat -x, -e instructions:u true 2>&1 >/dev/null | grep instructions)
		case ${out%%,*} in
		''|*[!0-9]*) ;;
		*) return 0 ;;
		esac
	fi
	# perf missing or not counting: ask the kernel directly (PERF_TYPE_HARDWARE, INSTRUCTIONS, user only)
	python3 - <<'PY' 2>/dev/null && return 0
import ctypes, os, platform, struct, sys
nr = {"x86_64": 298, "aarch64": 241, "ppc64le": 319, "riscv64": 241}.get(platform.machine())
attr = struct.pack("IIQQQQQ", 0, 64, 1, 0, 0, 0, 0x60).ljust(64, b"\0")  # disabled=0, exclude_kernel|hv
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
L = ctypes.c_long
fd = libc.syscall(L(nr), ctypes.c_char_p(attr), L(0), L(-1), L(-1), L(0)) if nr else -1
sys.exit(0 if fd >= 0 else 1)
PY
	PREREQ_WHY="perf_event_open of the instructions counter fails: no hardware counters, as in a VM without a virtual PMU, or perf_event_paranoid forbids it"
	return 1
}
prereq_libclang() {
	local lib=${ARCHSCOPE_LIBCLANG:-} cache
	cache="$(dirname "${ARCHSCOPE:-/nonexistent}")/CMakeCache.txt"
	[ -n "$lib" ] || [ ! -f "$cache" ] || lib=$(sed -n 's/^LIBCLANG:FILEPATH=//p' "$cache")
	if [ -n "$lib" ]; then
		[ -e "$lib" ] && return 0
		PREREQ_WHY="no libclang at '$lib'"
		return 1
	fi
	ldconfig -p 2>/dev/null | grep -q 'libclang[-.0-9]*\.so' && return 0
	PREREQ_WHY="no libclang known to ldconfig; Debian package libclang-19-dev"
	return 1
}
prereq_specs() {
	local v f m
	v=$(awk -F': ' '/^vendor_id/{print $2; exit}' /proc/cpuinfo)
	f=$(awk -F': ' '/^cpu family/{print $2; exit}' /proc/cpuinfo)
	m=$(awk -F': ' '/^model[[:space:]]*:/{print $2; exit}' /proc/cpuinfo)
	SPECS_ROW=$(awk -F'\t' -v v="$v" -v f="$f" -v m="$m" '$1==v && $2==f && $3==m' "$ROOT/tests/specs/cpus.tsv")
	[ -n "$SPECS_ROW" ] && return 0
	PREREQ_WHY="no published specs for '$v' family '$f' model '$m' in tests/specs/cpus.tsv"
	return 1
}
prereq_quiet() {
	local load cpus
	load=$(cut -d' ' -f1 /proc/loadavg)
	cpus=$(python3 -c 'import os; print(len(os.sched_getaffinity(0)))')
	python3 -c "import sys; sys.exit(0 if $load < 0.75 * $cpus else 1)" && return 0
	PREREQ_WHY="load average $load on $cpus CPUs"
	return 1
}
prereq_mpi() {
	command -v mpirun >/dev/null || { PREREQ_WHY="no mpirun in PATH; Debian package openmpi-bin"; return 1; }
	mpirun --version 2>/dev/null | grep -q 'Open MPI' || { PREREQ_WHY="mpirun is not Open MPI's"; return 1; }
	[ -x "$(dirname "${ARCHSCOPE:-/nonexistent}")/archscope-cluster" ] ||
		{ PREREQ_WHY="no archscope-cluster beside $ARCHSCOPE: built without Open MPI (libopenmpi-dev)"; return 1; }
}
prereq_netns() {
	[ "$(id -u)" -eq 0 ] || { PREREQ_WHY="network namespaces need root (uid $(id -u))"; return 1; }
	command -v ip >/dev/null && command -v unshare >/dev/null ||
		{ PREREQ_WHY="no ip or unshare in PATH; Debian packages iproute2 util-linux"; return 1; }
	local ns=asprobe$$ out
	if out=$(ip netns add $ns 2>&1 && ip -n $ns link add eth0 type veth peer name eth1 2>&1 &&
		 ip netns exec $ns unshare --uts --mount true 2>&1); then
		ip netns del $ns 2>/dev/null
		return 0
	fi
	ip netns del $ns 2>/dev/null
	PREREQ_WHY="cannot make a namespace with a veth pair here: $(head -c 160 <<<"$out")"
	return 1
}
prereq_mpirun() {
	command -v mpicc >/dev/null && command -v mpirun >/dev/null ||
		{ PREREQ_WHY="no mpicc or mpirun in PATH; Debian packages openmpi-bin libopenmpi-dev"; return 1; }
	local d; d=$(mktemp -d)
	printf '#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return 0; }\n' >"$d/m.c"
	if mpicc -o "$d/m" "$d/m.c" 2>/dev/null &&
		timeout 60 mpirun $( [ "$(id -u)" -eq 0 ] && echo --allow-run-as-root) --oversubscribe -np 2 "$d/m" >/dev/null 2>&1; then
		rm -rf "$d"
		return 0
	fi
	rm -rf "$d"
	PREREQ_WHY="mpicc or mpirun -np 2 of a minimal MPI program fails here"
	return 1
}
prereq_openmp() {
	command -v "$1" >/dev/null || { PREREQ_WHY="no $1 in PATH"; return 1; }
	local d; d=$(mktemp -d)
	printf '#include <omp.h>\nint main(void) { int n = 0;\n#pragma omp parallel reduction(+:n)\nn++;\nreturn n < 1; }\n' >"$d/o.c"
	if "$1" -fopenmp -o "$d/o" "$d/o.c" 2>/dev/null && OMP_NUM_THREADS=2 "$d/o"; then
		rm -rf "$d"
		return 0
	fi
	rm -rf "$d"
	PREREQ_WHY="$1 -fopenmp does not build and run a program (Debian: libgomp for gcc, libomp-dev for clang)"
	return 1
}
