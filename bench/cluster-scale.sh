#!/usr/bin/env bash
# The scale of archscope cluster, on paper: the steps and the time of a full run for 2 to 1,024
# nodes of 128 cores, from the per-step times of two measured runs with the default settings
# (--reps 200, --size 1MiB, --window 64, --bursts 5, every node probe):
#   net: two nodes made of namespaces, one rank each (tests/cli/mpi.sh): a step between nodes;
#   shm: two ranks on this machine: a step inside a node.
# Two schedules for P = N x R ranks (R = 128):
#   full  (what cluster runs, up to 1,024 ranks): latency, bandwidth and shift each in P - 1 steps of
#         disjoint pairs; in a bandwidth or shift step the R ranks of a node share its link, so a step
#         takes R times the measured one; each step ends with P records to rank 0 (P x o_r, o_r the
#         network layer's LogGP receive overhead) and a barrier (log2 P x L, the network's latency);
#   nodes (the schedule for bigger clusters): every node's ranks in R - 1 steps at once inside the
#         nodes, then the node leaders in N - 1 steps between nodes (one pair per node pair, no link
#         shared), barriers only, the matrices gathered once at the end (condensed per node pair).
# Both add the node probes (measured, once: all leaders at once), LogGP (3 layers) and contention
# (log2 R + 1 steps, k pairs sharing the link). Writes docs/figures/cluster-scale.{dat,svg,png}.
set -uo pipefail
case "${1:-}" in -h | --help) sed -n '2,/^set -uo/{/^set -uo/d; s/^# \{0,1\}//; p}' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/.."
root=$(pwd)
[ -x build/archscope-cluster ] || bash scripts/setup.sh >/dev/null
[ -x build/archscope-cluster ] || { echo "cluster-scale: no build/archscope-cluster (built when Open MPI is found)"; exit 1; }
bin=$root/build/archscope
tmp=$(mktemp -d)
TMP=$tmp
. "$root/tests/cli/mpi.sh"
netns_up 2 || { echo "cluster-scale: cannot make namespace nodes: $NETNS_WHY"; exit 1; }

echo "# $(date -u +%F) $(git -C "$root" log -1 --format=%h): bash bench/cluster-scale.sh"
echo "# load average before: $(cat /proc/loadavg)"
netns_mpirun 1 "$bin" cluster --json -q >"$tmp/net.json" 2>"$tmp/net.err" || { echo "net run failed: $(tail -3 "$tmp/net.err")"; exit 1; }
mpi_local 2 "$bin" cluster --json -q --skip nodes >"$tmp/shm.json" 2>"$tmp/shm.err" || { echo "shm run failed: $(tail -3 "$tmp/shm.err")"; exit 1; }
echo "# load average after the runs: $(cat /proc/loadavg)"

python3 - "$tmp/net.json" "$tmp/shm.json" "$root/docs/figures/cluster-scale.dat" <<'PY'
import json, math, sys
net = json.load(open(sys.argv[1]))["results"]
shm = json.load(open(sys.argv[2]))["results"]
def steps(r):
    return {t["phase"]: t for t in r["timing"]}
tn, ts = steps(net), steps(shm)
ms = lambda t, ph: t[ph]["per_step_ms"] * 1e-3
lat_n, bw_n, sh_n = ms(tn, "latency"), ms(tn, "bandwidth"), ms(tn, "shift")
lat_s, bw_s, sh_s = ms(ts, "latency"), ms(ts, "bandwidth"), ms(ts, "shift")
nodes_s = tn["nodes"]["seconds"]
loggp_n = ms(tn, "loggp")          # one pair between nodes
loggp_s = ms(ts, "loggp")          # one pair inside a node
cont_n = ms(tn, "contention")      # one pair streaming
g = net["layers"][-1]["loggp"]
L_us, o_r_us = g["L_us"], g["o_r_us"]
print("measured per step (s): between nodes latency %.4f bandwidth %.4f shift %.4f; inside a node latency %.4f "
      "bandwidth %.4f shift %.4f" % (lat_n, bw_n, sh_n, lat_s, bw_s, sh_s))
print("measured once: node probes %.1f s; LogGP per pair %.2f s (net), %.2f s (shm); network L %.2f us, o_r %.3f us"
      % (nodes_s, loggp_n, loggp_s, L_us, o_r_us))
R = 128
st = net["settings"]
window_bytes = st["message_bytes"] * st["window"] * (st["bursts"] + 1)   # one direction of one pair, warm-up included
rows = []
for e in range(1, 11):
    N = 2 ** e
    P = N * R
    lg = math.log2(P)
    sync = lg * L_us * 1e-6                      # a barrier
    gather = P * o_r_us * 1e-6                   # P records to rank 0
    kmax = R
    cont_steps = int(math.log2(kmax)) + 1
    cont = sum(2 ** i for i in range(cont_steps)) * cont_n   # step k: k pairs share the link, one direction
    fixed = nodes_s + 3 * loggp_n + cont
    full_steps = 3 * (P - 1)
    full = (P - 1) * (lat_n + R * bw_n + R * sh_n) + full_steps * (sync + gather) + fixed
    node_steps = 3 * (R - 1) + 3 * (N - 1)
    nodes = (R - 1) * (lat_s + bw_s + sh_s) + (N - 1) * (lat_n + bw_n + sh_n) + node_steps * sync \
        + (P * R + N * N) * o_r_us * 1e-6 + fixed
    # the same schedule with bandwidth and shift steps at 100 Gb/s (12.5 GB/s) between nodes: the
    # bytes a step moves over that rate, the rest as measured
    bw100 = 2 * window_bytes / 12.5e9 + lat_n
    sh100 = window_bytes / 12.5e9 + lat_n
    cont100 = sum(2 ** i for i in range(cont_steps)) * window_bytes / 12.5e9
    nodes100 = nodes - (N - 1) * (bw_n + sh_n) + (N - 1) * (bw100 + sh100) - cont + cont100
    rows.append((N, P, full_steps, full, node_steps, nodes, nodes100))
def fmt(s):
    return "%.0f s" % s if s < 120 else "%.1f min" % (s / 60) if s < 7200 else "%.1f h" % (s / 3600) if s < 172800 else "%.1f days" % (s / 86400)
print()
print("nodes    ranks   full: steps        time   nodes: steps      time   at 100 Gb/s")
for N, P, fs, ft, ns, nt, n100 in rows:
    print("%5d %8d %13d %11s %14d %9s %13s" % (N, P, fs, fmt(ft), ns, fmt(nt), fmt(n100)))
with open(sys.argv[3], "w") as f:
    f.write("# nodes ranks full_steps full_seconds nodes_steps nodes_seconds nodes_seconds_100gbs (bench/cluster-scale.sh)\n")
    for r in rows:
        f.write("%d %d %d %.6g %d %.6g %.6g\n" % r)
PY
cd "$root/docs/figures" || exit 1
cat >cluster-scale.gp <<'GP'
# bench/cluster-scale.sh: steps and time of a full archscope cluster run, from cluster-scale.dat
set title 'archscope cluster: a full run on N nodes of 128 cores'
set logscale xy
set xlabel 'nodes (128 ranks each)'
set ylabel 'time of a full run (s)'
set y2label 'steps'
set logscale y2
set y2tics
set ytics nomirror
set key below maxrows 3
set grid
set xrange [1.6:1300]
set xtics (2,4,8,16,32,64,128,256,512,1024)
plot 'cluster-scale.dat' using 1:4 with linespoints lw 2 title 'full P x P, step times measured here', \
     '' using 1:6 with linespoints lw 2 title 'nodes schedule, step times measured here', \
     '' using 1:7 with linespoints lw 2 title 'nodes schedule, bandwidth steps at 100 Gb/s', \
     '' using 1:3 axes x1y2 with lines dt 2 title 'full: steps', \
     '' using 1:5 axes x1y2 with lines dt 2 title 'nodes: steps', \
     60 with lines lc rgb 'gray' title '1 minute', 3600 with lines lc rgb 'black' title '1 hour'
GP
gnuplot -e "set terminal svg size 800,560 dynamic enhanced font 'sans,11'; set output 'cluster-scale.svg'" cluster-scale.gp &&
	gnuplot -e "set terminal pngcairo size 800,560 enhanced font 'sans,10'; set output 'cluster-scale.png'" cluster-scale.gp ||
	echo "cluster-scale: gnuplot failed"
echo "figure: docs/figures/cluster-scale.svg, .png"
