#!/usr/bin/env bash
# archscope cluster's point to point (osu_latency, osu_bw, osu_bibw methods) beside an osu-style
# reference written from the OSU micro-benchmarks' documentation (bench/osu-ref.c, built here with
# mpicc) and NetPIPE (Debian netpipe-openmpi, NPopenmpi), on the same pair of ranks and path with the
# same mpirun options:
#   tcp: two nodes made of namespaces (tests/cli/mpi.sh), one rank each: Open MPI's TCP over veth;
#   shm: two ranks on one machine: shared memory (vader).
# Both run the same iteration counts: COUNTS=osu osu's own (cluster --osu-counts), COUNTS=short
# cluster's default (a tenth, capped at 32 MiB moved; osu-ref -short).
# A shared machine: each round runs the reference and cluster back to back, pair by pair (odd rounds
# the reference first, even rounds cluster first), then NetPIPE, with the load average of each
# round. Per path, size and figure, over the ROUNDS rounds of each tool: the median, the best (the
# least latency, the most bandwidth: what a run reports when nothing else took its CPU) and the
# spread ((max - min) / median, the noise of this machine); cluster / reference of the bests, of
# the medians and the median of the per-round ratios (a pair ran within seconds of each other).
# The verdict, within 10 % or not, is on the bests (best of ROUNDS for every tool, as osu's users
# take the best of repeated runs): on a loaded machine each mean has other processes' time slices
# in it, so the medians say how loaded the machine was more than how the tools differ. NetPIPE:
# its one-way latency (the fastest of its trials) beside cluster's osu_latency.
#   ROUNDS=7 COUNTS=short (defaults)
set -uo pipefail
case "${1:-}" in -h | --help) sed -n '2,/^set -uo/{/^set -uo/d; s/^# \{0,1\}//; p}' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/.."
root=$(pwd)
command -v NPopenmpi >/dev/null || { echo "cluster-vs-osu: no NPopenmpi (Debian package netpipe-openmpi)"; exit 1; }
command -v mpicc >/dev/null || { echo "cluster-vs-osu: no mpicc (Debian package libopenmpi-dev)"; exit 1; }
[ -x build/archscope-cluster ] || { echo "cluster-vs-osu: no build/archscope-cluster (built when Open MPI is found)"; exit 1; }
bin=$root/build/archscope
ROUNDS=${ROUNDS:-7}
COUNTS=${COUNTS:-short}
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
	echo "round $round load $(cut -d' ' -f1 /proc/loadavg)" >>load.txt
	for path in tcp shm; do
		if ((round % 2)); then
			ref "$path" | sed "s/^/$path $round ref /" >>all.txt
			as "$path" | sed "s/^/$path $round as /" >>all.txt
		else
			as "$path" | sed "s/^/$path $round as /" >>all.txt
			ref "$path" | sed "s/^/$path $round ref /" >>all.txt
		fi
		np "$path" | sed "s/^/$path $round np /" >>all.txt
	done
done

echo "# load average (1 minute) at the start of each round: $(awk '{ printf "%s%s", (NR > 1 ? ", " : ""), $4 }' load.txt)"
echo
python3 - all.txt "$ROUNDS" <<'PY'
import collections, math, statistics, sys
v = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    path, rnd, who, b, *fig = line.split()
    v[path, who, int(b)][int(rnd)] = [float(x) for x in fig]
def name(b):
    return "%d B" % b if b < 1024 else "%d KiB" % (b >> 10) if b < 1 << 20 else "%d MiB" % (b >> 20)
def num(x):
    if not math.isfinite(x):
        return "-"
    d = max(0, min(6, 3 - int(math.floor(math.log10(abs(x)))))) if x else 0
    return "%.*f" % (d, x)
ok_all = True
for path in ("tcp", "shm"):
    print("%s: %s" % (path, "two namespace nodes, one rank each (TCP over veth)" if path == "tcp" else "two ranks on one machine (shared memory)"))
    print("  %-7s %-13s %-5s %10s %10s %7s %10s %10s %7s  %-19s %s" % ("size", "figure", "unit", "cluster", "median", "spread",
          "reference", "median", "spread", "best ratio (median)", "verdict on the bests"))
    for b in (8, 65536, 1048576):
        for k, fig, unit, lower in ((0, "latency", "us", True), (1, "osu_bw", "GB/s", False), (2, "osu_bibw", "GB/s", False)):
            col = {who: [x[k] for x in v[path, who, b].values() if math.isfinite(x[k])] for who in ("as", "ref")}
            if not col["as"] or not col["ref"]:
                print("  %-7s %-13s %-5s  no figure from %s" % (name(b), fig, unit, "cluster" if not col["as"] else "the reference"))
                ok_all = False
                continue
            best = {w: (min if lower else max)(c) for w, c in col.items()}
            med = {w: statistics.median(c) for w, c in col.items()}
            spr = {w: (max(c) - min(c)) / med[w] for w, c in col.items()}
            paired = [v[path, "as", b][r][k] / v[path, "ref", b][r][k] for r in v[path, "as", b] if r in v[path, "ref", b]]
            q = best["as"] / best["ref"]
            ok = abs(q - 1) <= 0.10
            ok_all &= ok
            print("  %-7s %-13s %-5s %10s %10s %6.0f%% %10s %10s %6.0f%%  %.3f (%.3f, %.3f)  %s" % (
                name(b), fig, unit, num(best["as"]), num(med["as"]), 100 * spr["as"], num(best["ref"]), num(med["ref"]),
                100 * spr["ref"], q, med["as"] / med["ref"], statistics.median(paired), "within 10 %" if ok else "NOT within 10 %"))
            if k == 0:
                npc = [x[0] for x in v[path, "np", b].values() if math.isfinite(x[0])]
                if npc:
                    qn = best["as"] / min(npc)
                    okn = abs(qn - 1) <= 0.10
                    ok_all &= okn
                    print("  %-7s %-13s %-5s %10s %10s %6.0f%%  (NetPIPE, one-way: the fastest trial)    %.3f (%.3f)  %s" % (
                        "", "  vs NetPIPE", unit, num(min(npc)), num(statistics.median(npc)),
                        100 * (max(npc) - min(npc)) / statistics.median(npc), qn, med["as"] / statistics.median(npc),
                        "within 10 %" if okn else "NOT within 10 %"))
print("(cluster and reference columns: the best of the rounds, then the median; spread: (max - min) / median over the rounds;")
print(" best ratio: cluster / reference of the bests, in brackets of the medians and the median of the per-round ratios)")
print("verdict: %s within 10 %% (best of %s rounds)" % ("all" if ok_all else "some NOT", sys.argv[2]))
PY
echo "# load average after: $(cat /proc/loadavg)"
