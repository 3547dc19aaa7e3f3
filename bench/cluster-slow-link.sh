#!/usr/bin/env bash
# Does `archscope cluster` name a degraded link, and only it? Four nodes made of namespaces
# (tests/cli/mpi.sh), one rank each. RUNS degraded runs: node 2's veth sends through a tbf rate
# limit (RATE, `tc qdisc add dev eth0 root tbf`; and netem's delay as well where this kernel has
# netem, DELAY), then RUNS healthy runs without it. Each run's results.slow[] is read: a degraded
# run is right when it names node 2 ("node sending", or with netem "node latency") and each of its
# links out, and nothing else; a healthy run when it names nothing. Each run also says whether its
# verdict was flagged (slow_noisy: the conditions module found its sweeps disturbed, why) and the
# load average at its start. Prints one line per run and the counts, those of flagged runs apart.
# Traffic stays on the links made here (the network rule).
#   RUNS=5 RATE=50mbit DELAY=2ms ARGS='--skip nodes,loggp,contention --reps 50 --size 1MiB --window 2 --bursts 3'
set -uo pipefail
case "${1:-}" in -h | --help) sed -n '2,/^set -uo/{/^set -uo/d; s/^# \{0,1\}//; p}' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/.."
root=$(pwd)
bin=${ARCHSCOPE:-$root/build/archscope}
[ -x "$(dirname "$bin")/archscope-cluster" ] || { echo "cluster-slow-link: no archscope-cluster beside $bin (built when Open MPI is found)"; exit 1; }
command -v tc >/dev/null || { echo "cluster-slow-link: no tc (Debian package iproute2)"; exit 1; }
RUNS=${RUNS:-5}
RATE=${RATE:-50mbit}
DELAY=${DELAY:-2ms}
ARGS=${ARGS:---skip nodes,loggp,contention --reps 50 --size 1MiB --window 2 --bursts 3}
tmp=$(mktemp -d)
TMP=$tmp
. "$root/tests/cli/mpi.sh"
netns_up 4 || { echo "cluster-slow-link: cannot make namespace nodes: $NETNS_WHY"; exit 1; }

echo "# $(date -u +%F) $(git -C "$root" log -1 --format=%h): bash bench/cluster-slow-link.sh (RUNS=$RUNS RATE=$RATE ARGS=$ARGS)"
echo "# $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs, kernel $(uname -r); $(mpirun --version | head -1)"
echo "# load average before: $(cat /proc/loadavg)"
ns2=${NETNS_PFX}n2
netem=0
if ip netns exec "$ns2" tc qdisc add dev eth0 root handle 1: tbf rate "$RATE" burst 64kb latency 1s 2>"$tmp/tc.err"; then
	if ip netns exec "$ns2" tc qdisc add dev eth0 parent 1:1 handle 10: netem delay "$DELAY" 2>>"$tmp/tc.err"; then
		netem=1
		echo "# degraded: node 2 (node2) sends through tbf rate $RATE and netem delay $DELAY"
	else
		echo "# degraded: node 2 (node2) sends through tbf rate $RATE (no netem here: $(tail -1 "$tmp/tc.err"))"
	fi
else
	echo "cluster-slow-link: tc cannot add tbf: $(cat "$tmp/tc.err")"
	exit 1
fi

# judge FILE degraded|healthy: prints "right" or "wrong: ..." and what was named
judge() {
	python3 - "$1" "$2" "$netem" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
mode, netem = sys.argv[2], sys.argv[3] == "1"
slow = r.get("slow", [])
named = ["%s %s" % (s["what"], s["ranks"]) for s in slow]
right_node = {"node sending"} | ({"node latency"} if netem else set())
# in a healthy run everything named is a healthy link or node
healthy = slow if mode == "healthy" else [
    s for s in slow if not ((s["node"] == 2 and s["what"] in right_node) or
                            (s["node"] is None and s["ranks"][0] == 2) or
                            (s["node"] is None and 2 in s["ranks"] and s["what"] == "latency"))]
bw = r["bandwidth_gbs"]
out2 = sorted(round(bw[2][j], 4) for j in (0, 1, 3))
rest = sorted(round(bw[i][j], 4) for i in (0, 1, 3) for j in range(4) if i != j)
if mode == "degraded":
    found = any(s["node"] == 2 for s in slow) and all(
        any(s["node"] is None and s["ranks"] == [2, j] for s in slow) for j in (0, 1, 3))
else:
    found = False
print("%s named_right=%d named_healthy=%d noisy=%d | %s | node2 out %s GB/s, others %s..%s GB/s | %s" % (
    "right" if (found if mode == "degraded" else True) and not healthy else "wrong",
    int(found), len(healthy), int(bool(r.get("slow_noisy"))), "; ".join(named) or "nothing", out2, rest[0], rest[-1],
    "flagged: " + r["slow_conditions"]["why"] if r.get("slow_noisy") else "not flagged"))
PY
}

run_one() {
	local mode=$1 k=$2
	# shellcheck disable=SC2086
	local load
	load=$(cut -d' ' -f1 /proc/loadavg)
	if ! netns_mpirun 1 "$bin" cluster --json $ARGS >"$tmp/$mode$k.json" 2>"$tmp/err"; then
		echo "$mode $k: the run failed: $(tail -2 "$tmp/err")"
		return
	fi
	echo "$mode $k (load $load): $(judge "$tmp/$mode$k.json" "$mode")"
}
for ((k = 1; k <= RUNS; k++)); do run_one degraded "$k"; done | tee "$tmp/degraded.log"
ip netns exec "$ns2" tc qdisc del dev eth0 root
for ((k = 1; k <= RUNS; k++)); do run_one healthy "$k"; done | tee "$tmp/healthy.log"
echo "# load average after: $(cat /proc/loadavg)"
echo "degraded runs that named node 2 and its links: $(grep -c 'named_right=1' "$tmp/degraded.log") of $RUNS"
echo "degraded runs that named a healthy link or node: $(grep -c 'named_healthy=[1-9]' "$tmp/degraded.log") of $RUNS"
echo "healthy runs that named a link or node: $(grep -c 'named_healthy=[1-9]' "$tmp/healthy.log") of $RUNS"
echo "of the runs that named a healthy link or node, their verdict not flagged noisy: $(cat "$tmp/degraded.log" "$tmp/healthy.log" | grep 'named_healthy=[1-9]' | grep -c 'noisy=0')"
echo "runs whose verdict was flagged noisy: $(cat "$tmp/degraded.log" "$tmp/healthy.log" | grep -c 'noisy=1') of $((2 * RUNS))"
rm -rf "$tmp"
