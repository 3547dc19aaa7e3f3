#!/usr/bin/env bash
# Installs the Debian packages archscope needs (only the missing ones, saying which) and builds
# build/archscope. Idempotent: a second run installs nothing and rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
	gcc clang cmake ninja-build pkg-config   # toolchain (clang: the warning check in the tests)
	libhwloc-dev hwloc                      # topology
	libxml2-dev                             # topology XML checked before hwloc reads it
	libjansson-dev libyaml-dev              # JSON and YAML output, machine files
	libclang-19-dev                         # kernel parser of archscope model
	llvm-19                                 # llvm-mca (Zen 5, Sapphire/Emerald/Granite Rapids models): the in-core model
	libpfm4-dev                             # counter event names (perf_event_open attributes)
	libgsl-dev                              # distributions and fits (compare, regress, phases)
	libnuma-dev numactl                     # NUMA placement (numa)
	libncurses-dev                          # the live view of numa load
	libdw-dev                               # call sites (stack)
	libiberty-dev                           # C++ names of call sites demangled (stack)
	libopenblas-dev                         # tune's reference dgemm
	linux-perf                              # perf stat, the side-by-side reference of stat
	gnuplot-nox                             # --plot
	python3                                 # tests read JSON with python3 -m json.tool
	pandoc man-db                           # man pages from docs/ (build), man -l in their test
	dpkg-dev                                # the Debian package: dpkg-shlibdeps, dpkg-deb
	lintian                                 # the Debian package checked against policy (t0271)
	chromium                                # the report test loads report.html in headless Chromium
	openmpi-bin libopenmpi-dev              # archscope cluster (built when CMake finds Open MPI)
	netpipe-openmpi iproute2                # cluster's reference (NPopenmpi); namespace nodes in its tests
	make libomp-dev                         # stack's tests: make -j, clang -fopenmp (mpirun: openmpi-bin above)
	likwid                                  # stat --regions: LIKWID's marker API example and header (t0641), a side-by-side reference
	coz-profiler                            # coz.h: whatif's test of programs instrumented for Coz
)

missing=()
for p in "${packages[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing+=("$p")
	fi
done
if [ "${#missing[@]}" -gt 0 ]; then
	echo "setup: installing ${missing[*]}"
	SUDO=""
	if [ "$(id -u)" -ne 0 ]; then
		command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
		SUDO=sudo
	fi
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
	echo "setup: all ${#packages[@]} packages present"
fi

build=${ARCHSCOPE_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DARCHSCOPE_WERROR=ON >/dev/null
ninja -C "$build" >/dev/null
echo "setup: built $build/archscope"
