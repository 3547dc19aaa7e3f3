#!/usr/bin/env bash
# The memory probes' speed and consistency on this machine, in one run:
#   1. `probe line caches assoc tlb` three times in a row: seconds and answers per run
#      (target: <= 30 s each, the same answers);
#   2. `--quick` three times (target: <= 5 s);
#   3. once while the other CPU runs a memory-bound load (dd writing 64 MiB blocks);
#   4. once with sysfs cache information hidden (root: unshare -m, tmpfs over /sys/devices/system/cpu).
set -uo pipefail
cd "$(dirname "$0")/.."
[ -x build/archscope ] || bash scripts/setup.sh >/dev/null
bin=$(pwd)/build/archscope
. bench/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"; [ -n "${load:-}" ] && kill "$load" 2>/dev/null' EXIT
cpus=$(python3 -c 'import os; print(" ".join(map(str, sorted(os.sched_getaffinity(0)))))')
probe_cpu=${cpus%% *}; other=${cpus##* }

summary() { # $1 json, $2 seconds, $3 label
	python3 - "$1" "$2" "$3" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
v = lambda a: a["value"]
def sz(b):
    if b is None: return "-"
    for u, d in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= d: return f"{b / d:g} {u}"
    return f"{b:g} B"
lv = r["caches"]["levels"]
caches = " ".join(f"L{l['level']}={sz(v(l['size']))}/{v(l['latency']):.1f}ns" for l in lv)
ways = ",".join("-" if v(a["ways"]) is None else f"{v(a['ways']):g}" for a in r["assoc"]["levels"])
tlb = ",".join(f"{v(l['entries']):g}" for l in r["tlb"]["levels"])
mem = v(r["caches"]["memory_latency"])
print(f"{sys.argv[3]:<22} {float(sys.argv[2]):6.1f} s  line {v(r['line']):g} B  {caches}  mem {mem if mem is None else round(mem, 1)} ns  ways {ways}  page {v(r['tlb']['page_size']):g} B  tlb {tlb}")
PY
}

echo "archscope probe line caches assoc tlb on cpu $probe_cpu ($(nproc) CPUs)"
for i in 1 2 3; do run "full run $i" "$bin" probe line caches assoc tlb --json --cpu "$probe_cpu"; done
for i in 1 2 3; do run "quick run $i" "$bin" probe line caches assoc tlb --json --quick --cpu "$probe_cpu"; done
if [ "$other" != "$probe_cpu" ]; then
	taskset -c "$other" dd if=/dev/zero of=/dev/null bs=64M count=1000000 2>/dev/null & load=$!
	sleep 0.5
	run "full, cpu $other loaded" "$bin" probe line caches assoc tlb --json --cpu "$probe_cpu"
	kill "$load" 2>/dev/null; wait "$load" 2>/dev/null; load=
else
	echo "full, other cpu loaded: skipped (only one CPU allowed)"
fi
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
	run "full, sysfs hidden" unshare -m sh -c "mount -t tmpfs none /sys/devices/system/cpu && exec '$bin' probe line caches assoc tlb --json --cpu $probe_cpu"
else
	echo "full, sysfs hidden: skipped (needs root and unshare -m)"
fi
echo "os_reported: $("$bin" topology --json | python3 -c 'import json,sys; c=json.load(sys.stdin)["results"]["caches"]; print(" ".join("L%d%s=%dKiB/%sway" % (x["level"], x["type"][0], x["size_bytes"]//1024, x["ways"]) for x in c))'), page $(getconf PAGESIZE) B"
