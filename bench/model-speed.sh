#!/bin/bash
# Speed of archscope model (issue: model I): the cache simulator's accesses per second on a 2D
# 5-point access stream through a 3-level LRU hierarchy (Kerncraft's Sandy Bridge file), one full
# -p LC -p ECMData -p Roofline run on the long-range 3D stencil, and a 200-size LC sweep.
# pycachesim and Kerncraft are not Debian packages; when python3 can import pycachesim, the same
# stream runs through it for a ratio, otherwise the script says so.
# Usage: bench/model-speed.sh [RUNS]    (default 5 runs of each; medians printed)
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh 2>/dev/null || true
A=${ARCHSCOPE:-build/archscope}
[ -x "$A" ] || { echo "build first: bash scripts/setup.sh" >&2; exit 1; }
RUNS=${1:-5}
SNB=tests/fixtures/machines/kerncraft-snb-e5-2680.yml
IVB=machines/ivb-ep-e5-2690v2.yaml
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
now_ns() { date +%s%N; }

echo "== cache simulator: kernels/jacobi-2d-5pt.c, N=2000 M=1000, L1/L2/L3 LRU (Sandy Bridge), 4M measured iterations"
rates=()
for r in $(seq "$RUNS"); do
	rate=$("$A" model kernels/jacobi-2d-5pt.c -m "$SNB" -D N 2000 -D M 1000 -p ECMData --cache-predictor sim \
		--sim-iterations 4000000 --json | python3 -c 'import json,sys; s=json.load(sys.stdin)["results"]["simulation"]; print(s["measured_accesses"]/s["measured_seconds"]/1e6)')
	rates+=("$rate")
	printf '  run %d: %.1f M accesses/s\n' "$r" "$rate"
done
sim=$(printf '%s\n' "${rates[@]}" | median)
printf 'archscope cachesim: median %.1f M simulated accesses/s (target >= 200)\n' "$sim"
if python3 -c 'import pycachesim' 2>/dev/null; then
	py=$(python3 - <<'PY'
import time
from pycachesim import Cache, MainMemory, CacheSimulator
mem = MainMemory()
l3 = Cache("L3", 20480, 16, 64, "LRU"); mem.load_to(l3); mem.store_from(l3)
l2 = Cache("L2", 512, 8, 64, "LRU", store_to=l3, load_from=l3)
l1 = Cache("L1", 64, 8, 64, "LRU", store_to=l2, load_from=l2)
cs = CacheSimulator(l1, mem)
N, M = 2000, 1000
a, b = 0, 8 * N * M
n = 0
t0 = time.time()
for j in range(1, 200):
    for i in range(1, N - 1):
        for off in (j * N + i - 1, j * N + i + 1, (j - 1) * N + i, (j + 1) * N + i):
            cs.load(a + 8 * off, length=8)
        cs.store(b + 8 * (j * N + i), length=8)
        n += 5
print(n / (time.time() - t0) / 1e6)
PY
)
	printf 'pycachesim (driven from python): %.1f M accesses/s; ratio archscope/pycachesim %.2f\n' "$py" \
		"$(python3 -c "print($sim/$py)")"
else
	echo "pycachesim: not installed (not a Debian package; this machine has no other network) - no ratio"
fi

echo "== one full run: -p LC -p ECMData -p Roofline, kernels/3d-long-range.c, N=1015 M=130 (Ivy Bridge EP file)"
# cold: parse cache off, so every run loads libclang and parses; warm: the kernel parsed once
# before (the parse cache, as every run after a kernel's first one is).
cache=$(mktemp -d "${TMPDIR:-/tmp}/archscope-cache.XXXXXX")
one_run() { # $1 cache dir; prints microseconds
	local t0 t1
	t0=$(now_ns)
	ARCHSCOPE_CACHE_DIR=$1 "$A" model kernels/3d-long-range.c -m "$IVB" -D N 1015 -D M 130 -p LC -p ECMData -p Roofline \
		>/dev/null || { echo "model failed" >&2; exit 1; }
	t1=$(now_ns)
	echo $(( (t1 - t0) / 1000 ))
}
cold=() warm=()
one_run "$cache" >/dev/null # fills the cache
for r in $(seq "$RUNS"); do
	cold+=("$(one_run off)")
	warm+=("$(one_run "$cache")")
done
rm -rf "$cache"
c=$(printf '%s\n' "${cold[@]}" | median)
w=$(printf '%s\n' "${warm[@]}" | median)
printf 'one model run, cold (process start, loading libclang, parse, all three models): median %.1f ms\n' "$(echo "$c / 1000" | bc -l)"
printf 'one model run, warm (kernel in the parse cache): median %.1f ms (target <= 20 ms)\n' "$(echo "$w / 1000" | bc -l)"

echo "== 200-size sweep, LC: -D N 100:2090:10 -D M 130, kernels/3d-long-range.c"
ts=()
for r in $(seq "$RUNS"); do
	t0=$(now_ns)
	"$A" model kernels/3d-long-range.c -m "$IVB" -D N 100:2090:10 -D M 130 >"${TMPDIR:-/tmp}/sweep.$$" ||
		{ echo "sweep failed" >&2; exit 1; }
	t1=$(now_ns)
	ts+=("$(( (t1 - t0) / 1000 ))")
done
grep -q "^ *sizes  *200$" "${TMPDIR:-/tmp}/sweep.$$" || { echo "the sweep did not have 200 sizes" >&2; exit 1; }
rm -f "${TMPDIR:-/tmp}/sweep.$$"
sw=$(printf '%s\n' "${ts[@]}" | median)
printf '200-size LC sweep: median %.3f s (target <= 2 s)\n' "$(echo "$sw / 1000000" | bc -l)"
echo "Kerncraft (the issue's reference: 2.5-6 s per model run on this machine) is not installable here: no ratio"
