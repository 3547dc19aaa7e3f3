#!/usr/bin/env bash
# Fuzzes the machine-file reader with libFuzzer (clang, ASan + UBSan) for SECONDS (default 600),
# starting from the machine files in machines/ and tests/fixtures/machines. Prints libFuzzer's
# final statistics, the number of executions and whether a crash was found.
#   bash tests/fuzz/run.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-600}
out=build-fuzz
mkdir -p "$out/corpus"
cp machines/*.yaml tests/fixtures/machines/*.yml "$out/corpus/" 2>/dev/null || true
clang -g -O1 -std=c11 -D_GNU_SOURCE -Isrc -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	tests/fuzz/fuzz-machine.c src/report/mtree.c src/report/machine.c src/common/error.c src/common/atomicfile.c \
	$(pkg-config --cflags --libs yaml-0.1 jansson) -lm -o "$out/fuzz-machine"
set +e
"$out/fuzz-machine" -max_total_time="$secs" -max_len=65536 -timeout=10 -print_final_stats=1 \
	-artifact_prefix="$out/" "$out/corpus" 2>"$out/fuzz.log"
rc=$?
set -e
grep -E "stat::number_of_executed_units|stat::peak_rss_mb|Done [0-9]+ runs" "$out/fuzz.log" || tail -20 "$out/fuzz.log"
if [ $rc -eq 0 ]; then echo "fuzz: no crash in ${secs} s"; else echo "fuzz: CRASH (exit $rc), see $out/fuzz.log and $out/crash-*"; fi
exit $rc
