#!/usr/bin/env bash
# archscope cluster against NetPIPE (Debian netpipe-openmpi, NPopenmpi), side by side in one run, on
# the same pair of ranks and the same path, with the same mpirun options for both tools:
#   tcp: two nodes made of namespaces (tests/cli/mpi.sh), one rank on each: Open MPI's TCP path over
#        a veth pair on a bridge;
#   shm: two ranks on one machine: Open MPI's shared memory (vader).
# ROUNDS interleaved rounds (NetPIPE, archscope, NetPIPE, ...). Compared at 8 B and 1 MiB: the
# one-way latency (half the round trip) and the ping-pong bandwidth (bytes / one-way time), NetPIPE's
# as it reports them (the fastest of its 7 trials, each the mean of -n round trips: NP_N8=100 at
# 8 B, NP_N1M=3 at 1 MiB; its default sizes each trial to 0.25 s, which on this shared machine
# averages the other processes' time slices in), archscope's from `cluster --pair-sizes 8,1MiB
# --reps 1000` (the median of its timed round trips). The verdict per
# path and figure: the median over the rounds of archscope / NetPIPE, "within 10 %" or not. Beside:
# archscope's windowed bandwidth (osu_bw's method, --size 1MiB --window 64), which NetPIPE does not
# measure. First: NetPIPE's 8 B latency between the namespace nodes under three settings, the
# question of the 4 ms (Open MPI's default binding pins both nodes' rank to CPU 0 of this machine).
# A shared machine: each round's load average is printed, the rounds alternate which tool runs
# first, and per column the median, the best (least latency, most bandwidth) and the spread
# ((max - min) / median); the verdict is on the bests (best of ROUNDS for both tools: the run
# least disturbed by other work), the medians' ratio beside it.
#   ROUNDS=5 NP_N8=100 NP_N1M=3 MPI_YIELD=0 (defaults)
set -uo pipefail
case "${1:-}" in -h | --help) sed -n '2,/^set -uo/{/^set -uo/d; s/^# \{0,1\}//; p}' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/.."
root=$(pwd)
[ -x build/archscope-cluster ] || bash scripts/setup.sh >/dev/null
command -v NPopenmpi >/dev/null || { echo "cluster-vs-netpipe: no NPopenmpi (Debian package netpipe-openmpi)"; exit 1; }
[ -x build/archscope-cluster ] || { echo "cluster-vs-netpipe: no build/archscope-cluster (built when Open MPI is found)"; exit 1; }
bin=$root/build/archscope
ROUNDS=${ROUNDS:-5}
NP_N8=${NP_N8:-100}
NP_N1M=${NP_N1M:-3}
tmp=$(mktemp -d)
TMP=$tmp
. "$root/tests/cli/mpi.sh"
netns_up 2 || { echo "cluster-vs-netpipe: cannot make namespace nodes: $NETNS_WHY"; exit 1; }
cd "$tmp"

echo "# $(date -u +%F) $(git -C "$root" log -1 --format=%h): bash bench/cluster-vs-netpipe.sh (ROUNDS=$ROUNDS NP_N8=$NP_N8 NP_N1M=$NP_N1M)"
echo "# load average before: $(cat /proc/loadavg)"
echo "# $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs; $(mpirun --version | head -1); NetPIPE $(dpkg-query -W -f='${Version}' netpipe-openmpi 2>/dev/null)"

# Each rank on a CPU of its own, as on a cluster, so that no run depends on where the kernel put two
# unbound ranks: tcp: node 0 (mpirun and its rank) on CPU 0, node 1's daemon and rank on CPU 1;
# shm: --bind-to core.
netns_hook 1 'taskset -pc 1 $$ >/dev/null'
on_cpu0() { # node 0 on CPU 0 when node 1 has its own CPU
	if [ -f "$NETNS_DIR/hook1" ]; then ( taskset -pc 0 $BASHPID >/dev/null && "$@" ); else "$@"; fi
}

# np PATH LO HI [NPOPTS]: NetPIPE from LO to HI bytes; prints "bytes one_way_us gbs" per size
np() {
	local path=$1 lo=$2 hi=$3
	shift 3
	rm -f np.out
	if [ "$path" = tcp ]; then
		on_cpu0 netns_mpirun 1 NPopenmpi -l "$lo" -u "$hi" -p 0 "$@" -o "$tmp/np.out" >np.log 2>&1
	else
		MPI_BIND=core mpi_local 2 NPopenmpi -l "$lo" -u "$hi" -p 0 "$@" -o "$tmp/np.out" >np.log 2>&1
	fi || { echo "NetPIPE failed: $(tail -3 np.log)" >&2; return 1; }
	awk '{ printf "%d %.6g %.6g\n", $1, $3 * 1e6, $2 / 8e3 }' np.out
}

# as PATH: archscope cluster's figures "lat8_us lat1m_us pp_gbs_1m win_gbs_1m"
as() {
	local path=$1
	local args=(--json -q --skip nodes,shift,loggp,contention,p2p --reps 1000 --pair-sizes 8,1MiB --size 1MiB --window 64 --bursts 5)
	if [ "$path" = tcp ]; then
		on_cpu0 netns_mpirun 1 "$bin" cluster "${args[@]}" >as.json 2>as.err
	else
		MPI_BIND=core mpi_local 2 "$bin" cluster "${args[@]}" >as.json 2>as.err
	fi || { echo "archscope failed: $(tail -3 as.err)" >&2; return 1; }
	python3 - as.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
s = {x["bytes"]: x for x in r["sizes"]}
l8, l1m = s[8]["latency_us"][0][1], s[1048576]["latency_us"][0][1]
print("%.6g %.6g %.6g %.6g" % (l8, l1m, 1048576 / (l1m * 1e3), r["bandwidth_gbs"][0][1]))
PY
}

echo
echo "NetPIPE 8 B one-way latency between the two namespace nodes (tcp), by mpirun setting:"
for setting in "core 0" "none 0" "none 1"; do
	set -- $setting
	rm -f "$NETNS_DIR/hook1" # as a first try runs it: neither node pinned by hand
	r=$(NETNS_BIND=$1 MPI_YIELD=$2 np tcp 8 8 -n 100 | awk '$1 == 8 { print $2 }')
	printf '  --bind-to %-4s mpi_yield_when_idle %s  %10s us\n' "$1" "$2" "${r:-failed}"
done
echo "  (core: Open MPI's default; each node's daemon pins its rank to CPU 0 of this one machine)"
netns_hook 1 'taskset -pc 1 $$ >/dev/null'
export MPI_YIELD=${MPI_YIELD:-0}
echo "the comparison below, the same for both tools: each rank on a CPU of its own (tcp: --bind-to none, node 0"
echo "on CPU 0 and node 1 on CPU 1 by taskset; shm: --bind-to core), mpi_yield_when_idle $MPI_YIELD (no rank shares"
echo "its CPU with another; a rank that yields hands its CPU to the other work on this machine for a time slice)"

declare -A v
declare -a load
for ((round = 1; round <= ROUNDS; round++)); do
	for path in tcp shm; do
		load[$round]=$(cut -d' ' -f1 /proc/loadavg)
		np8= np1m= npbw= as8= as1m= asbw= aswin=
		((round % 2)) || read -r as8 as1m asbw aswin < <(as "$path")
		read -r _ np8 _ < <(np "$path" 8 8 -n "$NP_N8" | awk '$1 == 8')
		read -r _ np1m npbw < <(np "$path" 1048576 1048576 -n "$NP_N1M" | awk '$1 == 1048576')
		((round % 2 == 0)) || read -r as8 as1m asbw aswin < <(as "$path")
		v[$path,$round]="${np8:-nan} ${np1m:-nan} ${npbw:-nan} ${as8:-nan} ${as1m:-nan} ${asbw:-nan} ${aswin:-nan}"
	done
done

echo
echo "# load average (1 minute) at the start of each round: ${load[*]}"
python3 - "$ROUNDS" <<PY
import math, statistics, sys
rounds = int(sys.argv[1])
raw = {$(for k in "${!v[@]}"; do printf '"%s": "%s", ' "$k" "${v[$k]}"; done)}
ok_all = True
for path in ("tcp", "shm"):
    rows = [list(map(float, raw["%s,%d" % (path, r)].split())) for r in range(1, rounds + 1)]
    print("%s: %s" % (path, "two namespace nodes, one rank each (TCP over veth)" if path == "tcp" else "two ranks on one machine (shared memory)"))
    print("  round   NetPIPE 8 B  archscope 8 B    NetPIPE 1 MiB      archscope 1 MiB       archscope windowed 1 MiB")
    for r, x in enumerate(rows, 1):
        print("  %5d  %9.3f us   %9.3f us   %7.0f us %5.2f GB/s  %7.0f us %5.2f GB/s   %6.2f GB/s" % (r, x[0], x[3], x[1], x[2], x[4], x[5], x[6]))
    cols = [[v for v in c if math.isfinite(v)] for c in zip(*rows)]
    med = [statistics.median(c) if c else float("nan") for c in cols]
    # the best: least latency (columns 0, 1, 3, 4), most bandwidth (2, 5, 6)
    best = [(max(c) if k in (2, 5, 6) else min(c)) if c else float("nan") for k, c in enumerate(cols)]
    spr = [(max(c) - min(c)) / statistics.median(c) if c else float("nan") for c in cols]
    for name, x in (("median", med), ("best", best)):
        print("  %-6s %9.3f us   %9.3f us   %7.0f us %5.2f GB/s  %7.0f us %5.2f GB/s   %6.2f GB/s" % (name, x[0], x[3], x[1], x[2], x[4], x[5], x[6]))
    print("  spread %8.0f %%   %9.0f %%   %7.0f %% %7.0f %%  %7.0f %% %7.0f %%    %6.0f %%" % tuple(100 * spr[k] for k in (0, 3, 1, 2, 4, 5, 6)))
    for name, a, b in (("latency 8 B", 3, 0), ("latency 1 MiB", 4, 1), ("bandwidth 8 B", 3, 0), ("bandwidth 1 MiB", 5, 2)):
        inv = name == "bandwidth 8 B"  # 8 B / latency
        rb = (best[b] / best[a] if inv else best[a] / best[b]) if best[b] else float("nan")
        rm = (med[b] / med[a] if inv else med[a] / med[b]) if med[b] else float("nan")
        ok = math.isfinite(rb) and abs(rb - 1) <= 0.10
        ok_all &= ok
        print("  %-16s archscope / NetPIPE: best %.3f (median %.3f)  %s" % (name, rb, rm, "within 10 %" if ok else "NOT within 10 %"))
print("verdict: %s within 10 %% (best of %d rounds)" % ("all" if ok_all else "some NOT", rounds))
PY
echo "# load average after: $(cat /proc/loadavg)"
