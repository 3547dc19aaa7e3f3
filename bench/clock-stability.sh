#!/usr/bin/env bash
# Runs `archscope probe clock` RUNS times (default 5) and prints each measured core clock, the TSC
# rate, and the spread (max-min)/median in %. The foundation issue asks for a spread below 3 %.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
bin=build/archscope
[ -x "$bin" ] || bash scripts/setup.sh >/dev/null
vals=()
for i in $(seq "$runs"); do
	v=$("$bin" probe clock --json | python3 -c 'import json,sys; c=json.load(sys.stdin)["results"]["clock"]; print(c["value"], c["tsc_ghz"])')
	echo "run $i: core clock $(cut -d' ' -f1 <<<"$v") GHz, TSC $(cut -d' ' -f2 <<<"$v") GHz"
	vals+=("$(cut -d' ' -f1 <<<"$v")")
done
python3 - "${vals[@]}" <<'PY'
import sys, statistics
v = [float(x) for x in sys.argv[1:]]
med = statistics.median(v)
print(f"spread over {len(v)} runs: {(max(v)-min(v))/med*100:.2f} % of the median {med:.3f} GHz (min {min(v):.3f}, max {max(v):.3f})")
PY
