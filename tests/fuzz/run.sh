#!/usr/bin/env bash
# Fuzzes a reader with libFuzzer (clang, ASan + UBSan) for SECONDS (default 600): the machine-file
# reader (TARGET machine, seeds: machines/ and tests/fixtures/machines) or the kernel reader
# (TARGET kernel, seeds: kernels/). Prints libFuzzer's final statistics, the number of executions
# and whether a crash was found.
#   bash tests/fuzz/run.sh [SECONDS] [machine|kernel]
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-600}
target=${2:-machine}
out=build-fuzz
mkdir -p "$out/corpus-$target"
flags=(-g -O1 -std=c11 -D_GNU_SOURCE -DARCHSCOPE_VERSION=\"fuzz\" -Isrc -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined)
case $target in
machine)
	cp machines/*.yaml tests/fixtures/machines/*.yml "$out/corpus-$target/" 2>/dev/null || true
	clang "${flags[@]}" tests/fuzz/fuzz-machine.c src/report/mtree.c src/report/mtree-emit.c src/machine/*.c src/common/error.c \
		src/common/atomicfile.c $(pkg-config --cflags --libs yaml-0.1 jansson) -lm -o "$out/fuzz-$target"
	maxlen=65536 ;;
kernel)
	cp kernels/*.c "$out/corpus-$target/"
	# as_model's sources (the kernel reader in src/model/kernel-parse*.c) and what they call:
	# incore/ runs llvm-mca through common/spawn.c and reads its JSON with jansson, its settings
	# through report/mtree.c (libyaml).
	clang "${flags[@]}" -isystem /usr/lib/llvm-19/include tests/fuzz/fuzz-kernel.c src/model/*.c src/model/incore/*.c \
		src/report/mtree.c src/common/error.c src/common/timer.c src/common/atomicfile.c src/common/spawn.c \
		-DARCHSCOPE_LIBCLANG='"/usr/lib/llvm-19/lib/libclang-19.so"' $(pkg-config --cflags --libs jansson yaml-0.1) -ldl -lm \
		-o "$out/fuzz-$target"
	maxlen=4096 ;;
*) echo "usage: $0 [SECONDS] [machine|kernel]" >&2; exit 2 ;;
esac
set +e
"$out/fuzz-$target" -max_total_time="$secs" -max_len=$maxlen -timeout=10 -print_final_stats=1 \
	-artifact_prefix="$out/$target-" "$out/corpus-$target" 2>"$out/fuzz-$target.log"
rc=$?
set -e
grep -E "stat::number_of_executed_units|stat::peak_rss_mb|Done [0-9]+ runs" "$out/fuzz-$target.log" || tail -20 "$out/fuzz-$target.log"
if [ $rc -eq 0 ]; then echo "fuzz $target: no crash in ${secs} s"; else echo "fuzz $target: CRASH (exit $rc), see $out/fuzz-$target.log and $out/$target-crash-*"; fi
exit $rc
