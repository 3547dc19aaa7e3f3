#!/usr/bin/env bash
# The core probes' speed and answers on this machine, in one run:
#   1. `probe instr contexts registers timeslice c2c` twice (target: <= 30 s each);
#   2. the same with `--quick` twice (target: <= 5 s);
#   3. the instr figures against the published ones (how many within 1 cycle), the int add
#      latency against the measured clock (a dependent add chain runs at one add per cycle), and
#      the registers of the wide and the -mno-avx512f builds.
set -uo pipefail
cd "$(dirname "$0")/.."
[ -x build/archscope ] || bash scripts/setup.sh >/dev/null
bin=$(pwd)/build/archscope
. bench/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

summary() { # $1 json, $2 seconds, $3 label
	python3 - "$1" "$2" "$3" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
v = lambda a: a["value"]
ops = r["instr"]["ops"]
pub = [o for o in ops if o["published"]]
ok = sum(o["published"]["within_1_cy"] for o in pub)
per = " ".join(f"{x['tag']} {x['rows_within_1_cy']}" for x in r["instr"].get("published_sources") or [])
miss = ", ".join(f"{o['op']} {o['type']}{'x' + str(o['lanes']) if o['lanes'] > 1 else ''} {o['latency_cy']:.2f}" for o in pub
                 if not o["published"]["within_1_cy"])
add = [o for o in ops if o["op"] == "add" and o["type"] in ("int32", "int64") and o["lanes"] == 1]
adds = "/".join(f"{o['latency_cy']:.2f}" for o in add)
ctx = "/".join(f"{v(r['contexts'][k]):g}" if v(r["contexts"][k]) is not None else "-" for k in ("fp", "int", "mem"))
g = r["registers"]
regs = lambda d: "/".join("-" if v(d[k]) is None else f"{v(d[k]):g}" for k in ("int", "fp"))
f = r["instr"]["flops_per_cycle"]["DP"]["vector"]["total"]
tree = r["c2c"].get("tree")
print(f"{sys.argv[3]:<14} {float(sys.argv[2]):5.1f} s  int32/int64 add {adds} cy  published within 1 cy {ok}/{len(pub)} ({per}; off: {miss or 'none'})"
      f"  DP vector {f:.1f} FLOP/cy  contexts fp/int/mem {ctx}  registers int/fp wide {regs(g)}"
      f" narrow {regs(g['narrow'])}  slice {v(r['timeslice']['slice']):.2f} ms")
PY
}

echo "archscope probe instr contexts registers timeslice c2c ($(nproc) CPUs; clock measured first in each run)"
for i in 1 2; do run "full run $i" "$bin" probe instr contexts registers timeslice c2c --json; done
for i in 1 2; do run "quick run $i" "$bin" probe instr contexts registers timeslice c2c --json --quick; done
"$bin" probe clock instr --json > "$tmp/clk.json" 2>/dev/null && python3 - "$tmp/clk.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
ghz = r["clock"]["value"]
a = [o for o in r["instr"]["ops"] if o["op"] == "add" and o["type"] == "int32" and o["lanes"] == 1][0]
print(f"clock {ghz:.3f} GHz; int32 add chain {a['latency_ns']:.4f} ns per add = {a['latency_cy']:.2f} core cycles"
      f" (1 add per cycle means {1 / ghz:.4f} ns)")
PY
