#!/usr/bin/env bash
# The fuzz bench: each libFuzzer target of tests/fuzz/ (ASan + UBSan) run to 1,000,000 executions
# or its time cap, whichever comes first; prints per target the runs, the crashes and whether the
# 1 M goal was reached. Time caps (seconds) per target, for a shared machine (the kernel target parses
# each input with libclang, about 190 inputs/s under ASan: 1 M takes 1.5 h of one CPU, the bench 2.2 h):
#   FUZZ_CAPS="kernel=3600 machine=400 ..." (defaults below); FUZZ_RUNS (default 1000000);
#   FUZZ_TARGETS="options csv" (default: all eleven).
#   bash bench/fuzz.sh > bench/results/fuzz-amd-zen5-26-2.txt
set -euo pipefail
cd "$(dirname "$0")/.."
goal=${FUZZ_RUNS:-1000000}
declare -A cap=([options]=150 [csv]=300 [mca]=450 [machine]=450 [fromraw]=450 [kernel]=7200 [memhist]=150 [numa]=300 [statjson]=300 [groups]=600 [kcache]=900)
for kv in ${FUZZ_CAPS:-}; do cap[${kv%%=*}]=${kv#*=}; done
echo "# archscope fuzz bench on $(uname -n), $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%MZ); goal $goal runs per target"
echo "# clang $(clang --version | sed -n 's/.*clang version \([0-9.]*\).*/\1/p'), -fsanitize=fuzzer,address,undefined"
fail=0
printf '%-8s %10s %8s %7s %s\n' target runs crashes seconds goal
for t in ${FUZZ_TARGETS:-options csv mca machine fromraw kernel memhist numa statjson groups kcache}; do
	line=$(RUNS=$goal bash tests/fuzz/run.sh "${cap[$t]}" "$t" 2>&1 | grep "^fuzz $t:" || true)
	runs=$(echo "$line" | sed -n 's/.*: \([0-9]*\) runs.*/\1/p')
	crashes=$(echo "$line" | sed -n 's/.* \([0-9]*\) crashes.*/\1/p')
	secs=$(echo "$line" | sed -n 's/.* crashes, \([0-9]*\) s.*/\1/p')
	[ -n "$runs" ] || { echo "$t: no result ($line)"; fail=1; continue; }
	reached=$([ "$runs" -ge "$goal" ] && echo reached || echo "not reached (time cap ${cap[$t]} s)")
	printf '%-8s %10s %8s %7s %s\n' "$t" "$runs" "$crashes" "$secs" "$reached"
	[ "$crashes" -eq 0 ] || fail=1
done
exit $fail
