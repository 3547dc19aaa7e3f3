#!/usr/bin/env bash
# archscope cluster's point to point (osu_latency, osu_bw, osu_bibw methods) beside an osu-style
# reference written from the OSU micro-benchmarks' documentation (bench/osu-ref.c, built here with
# mpicc) and NetPIPE (Debian netpipe-openmpi, NPopenmpi), on the same pair of ranks and path with the
# same mpirun options:
#   tcp: two nodes made of namespaces (tests/cli/mpi.sh), one rank each: Open MPI's TCP over veth;
#   shm: two ranks on one machine: shared memory (vader).
# Both run the same iteration counts: COUNTS=osu osu's own (cluster --osu-counts), COUNTS=short
# cluster's default (a tenth, capped at 32 MiB moved; osu-ref -short). ROUNDS interleaved
# rounds (reference, cluster, NetPIPE, ...); per path and figure the median over rounds of
# cluster / reference (latency, bandwidth, bidirectional bandwidth) and cluster / NetPIPE (latency:
# both ping-pong; NetPIPE's one-way time, the fastest of its trials) at 8 B, 64 KiB and 1 MiB, and
# whether each is within 10 %. Each rank on a CPU of its own (tcp: node 0 on CPU 0, node 1 on CPU 1
# by taskset; shm: --bind-to core).
#   ROUNDS=3 COUNTS=osu (defaults)
set -uo pipefail
case "${1:-}" in -h | --help) sed -n '2,/^set -uo/{/^set -uo/d; s/^# \{0,1\}//; p}' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/.."
root=$(pwd)
command -v NPopenmpi >/dev/null || { echo "cluster-vs-osu: no NPopenmpi (Debian package netpipe-openmpi)"; exit 1; }
command -v mpicc >/dev/null || { echo "cluster-vs-osu: no mpicc (Debian package libopenmpi-dev)"; exit 1; }
[ -x build/archscope-cluster ] || { echo "cluster-vs-osu: no build/archscope-cluster (built when Open MPI is found)"; exit 1; }
bin=$root/build/archscope
ROUNDS=${ROUNDS:-3}
COUNTS=${COUNTS:-osu}
case $COUNTS in osu) as_counts=--osu-counts ref_counts= ;; short) as_counts= ref_counts=-short ;; *) echo "cluster-vs-osu: COUNTS is osu or short"; exit 2 ;; esac
SIZES="8 65536 1048576"
tmp=$(mktemp -d)
TMP=$tmp
mpicc -O2 -o "$tmp/osu-ref" bench/osu-ref.c || { echo "cluster-vs-osu: mpicc failed"; exit 1; }
. "$root/tests/cli/mpi.sh"
netns_up 2 || { echo "cluster-vs-osu: cannot make namespace nodes: $NETNS_WHY"; exit 1; }
cd "$tmp"
export MPI_YIELD=0

echo "# $(date -u +%F) $(git -C "$root" log -1 --format=%h): bash bench/cluster-vs-osu.sh (ROUNDS=$ROUNDS COUNTS=$COUNTS)"
echo "# load average before: $(cat /proc/loadavg)"
echo "# $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs; $(mpirun --version | head -1); NetPIPE $(dpkg-query -W -f='${Version}' netpipe-openmpi 2>/dev/null)"

netns_hook 1 'taskset -pc 1 $$ >/dev/null'
launch() { # launch PATH CMD...: two ranks on PATH
	local path=$1; shift
	if [ "$path" = tcp ]; then
		( taskset -pc 0 $BASHPID >/dev/null && netns_mpirun 1 "$@" )
	else
		MPI_BIND=core mpi_local 2 "$@"
	fi
}
# each prints "bytes latency_us bw_gbs bibw_gbs" per size
ref() { launch "$1" "$tmp/osu-ref" $ref_counts $SIZES 2>ref.err || echo "reference failed: $(tail -3 ref.err)" >&2; }
as() {
	launch "$1" "$bin" cluster --json -q --skip nodes,bandwidth,shift,loggp,contention,collectives --reps 50 $as_counts \
		--sizes "$(echo $SIZES | tr ' ' ,)" >as.json 2>as.err || { echo "archscope failed: $(tail -3 as.err)" >&2; return; }
	python3 -c '
import json, sys
for x in json.load(open(sys.argv[1]))["results"]["point_to_point"][0]["sizes"]:
    print(x["bytes"], x["latency_us"], x["bandwidth_gbs"], x["bibandwidth_gbs"])' as.json
}
np() { # "bytes one_way_us" per size
	local s
	for s in $SIZES; do
		rm -f np.out
		launch "$1" NPopenmpi -l "$s" -u "$s" -p 0 -o "$tmp/np.out" >np.log 2>&1 || { echo "NetPIPE failed: $(tail -3 np.log)" >&2; continue; }
		awk -v s="$s" '$1 == s { printf "%d %.6g\n", $1, $3 * 1e6 }' np.out
	done
}

for ((round = 1; round <= ROUNDS; round++)); do
	for path in tcp shm; do
		ref "$path" | sed "s/^/$path $round ref /" >>all.txt
		as "$path" | sed "s/^/$path $round as /" >>all.txt
		np "$path" | sed "s/^/$path $round np /" >>all.txt
	done
done

echo
python3 - all.txt "$ROUNDS" <<'PY'
import collections, math, statistics, sys
v = collections.defaultdict(list)
for line in open(sys.argv[1]):
    path, rnd, who, b, *fig = line.split()
    v[path, who, int(b)].append([float(x) for x in fig])
ok_all = True
for path in ("tcp", "shm"):
    print("%s: %s" % (path, "two namespace nodes, one rank each (TCP over veth)" if path == "tcp" else "two ranks on one machine (shared memory)"))
    print("  %-8s %-24s %12s %12s %12s  %s" % ("size", "figure", "cluster", "reference", "NetPIPE", "cluster / reference, / NetPIPE"))
    for b in (8, 65536, 1048576):
        med = lambda who, k: statistics.median(x[k] for x in v[path, who, b]) if v[path, who, b] else float("nan")
        for k, name, unit in ((0, "latency", "us"), (1, "bandwidth (osu_bw)", "GB/s"), (2, "bidirectional (osu_bibw)", "GB/s")):
            a, r = med("as", k), med("ref", k)
            n = med("np", 0) if k == 0 else float("nan")
            q1 = a / r if r else float("nan")
            q2 = a / n if k == 0 and n else float("nan")
            oks = [abs(q - 1) <= 0.10 for q in (q1, q2) if math.isfinite(q)]
            ok_all &= all(oks) and len(oks) > 0
            print("  %-8s %-24s %9.4g %-2s %9.4g %-2s %9s %-2s  %.3f%s  %s" % (
                "%d B" % b if b < 1024 else "%d KiB" % (b >> 10) if b < 1 << 20 else "%d MiB" % (b >> 20), name,
                a, unit, r, unit, "%.4g" % n if math.isfinite(n) else "-", unit if math.isfinite(n) else "",
                q1, ", %.3f" % q2 if math.isfinite(q2) else "", "within 10 %" if all(oks) and oks else "NOT within 10 %"))
print("verdict: %s" % ("all within 10 %" if ok_all else "some NOT within 10 %"))
PY
echo "# load average after: $(cat /proc/loadavg)"
