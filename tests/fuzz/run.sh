#!/usr/bin/env bash
# Builds every libFuzzer target (clang -fsanitize=fuzzer with ASan + UBSan) and runs each:
#   kernel   the kernel reader (libclang) and the models behind it
#   machine  the machine-file reader, checker and writer
#   csv      analyze's CSV reader and the analyses
#   fromraw  probe -o --from-raw: saved JSON into a machine file
#   mca      the llvm-mca --json reader
#   options  the command line's number and list parsers (opt_parse, cpu lists, sizes, quantities)
#   memhist  memhist --from: recorded load-latency samples (JSON lines, perf script text), histograms
#   numa     the NUMA matrix file of numa model --matrix, and the contention model on it
#   statjson compare's reader of stat results (stat --json, stat -o), and compare's statistics
#   groups   stat -M's metric-group files (text check, parser, metric expressions)
#   kcache   model's parse-cache entries (as they are, behind a valid head, and from a file), and the
#            models on a kernel an entry gives
# Seeds: tests/fuzz/corpus/TARGET/ (committed) plus kernels/, machines/ and fixtures. Each target
# runs SECONDS (default 60; 0: no time limit), and stops after RUNS executions when RUNS is set in
# the environment. Prints, per target, a line "fuzz TARGET: N runs, C crashes, S s".
#   bash tests/fuzz/run.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(kernel machine csv fromraw mca options memhist numa statjson groups kcache)
out=${FUZZ_OUT:-build-fuzz}
mkdir -p "$out/obj"
cflags=(-g -O1 -std=c11 -D_GNU_SOURCE -DARCHSCOPE_VERSION=\"fuzz\" -Isrc -isystem /usr/lib/llvm-19/include
	-DARCHSCOPE_LIBCLANG='"/usr/lib/llvm-19/lib/libclang-19.so"' -fsanitize=address,undefined
	-fno-sanitize-recover=undefined $(pkg-config --cflags jansson yaml-0.1 gsl))
libs=($(pkg-config --libs jansson yaml-0.1 gsl) -ldl -lm -lpthread)
# The library modules the parsers live in, built once into one archive (the sanitizers' and
# libFuzzer's coverage on every file: -fsanitize=fuzzer-no-link).
srcs=(src/common/*.c src/report/*.c src/machine/*.c src/analysis/*.c src/model/*.c src/model/incore/*.c
	src/topo/cpuinfo.c src/cli/parse-options.c src/cli/parse-options-help.c src/cli/util.c
	src/measure/memsample.c src/measure/memsample-read.c src/measure/stat-json.c src/measure/stat-group.c src/numa/matrix-file.c src/numa/model.c)
objs=()
# a header newer than the last archive rebuilds every object (a struct's layout may have changed)
all=0
[ ! -e "$out/libfuzz.a" ] || [ -z "$(find src -name '*.h' -newer "$out/libfuzz.a" -print -quit)" ] || all=1
for s in "${srcs[@]}"; do
	o="$out/obj/$(echo "${s%.c}" | tr / _).o"
	if [ $all = 1 ] || [ ! -e "$o" ] || [ "$s" -nt "$o" ]; then
		clang "${cflags[@]}" -fsanitize=fuzzer-no-link -c "$s" -o "$o"
	fi
	objs+=("$o")
done
rm -f "$out/libfuzz.a"
ar rcs "$out/libfuzz.a" "${objs[@]}"
total_crashes=0
for target in "${targets[@]}"; do
	[ -f "tests/fuzz/fuzz-$target.c" ] || { echo "no target '$target' (tests/fuzz/fuzz-$target.c)" >&2; exit 2; }
	clang "${cflags[@]}" -fsanitize=fuzzer "tests/fuzz/fuzz-$target.c" "$out/libfuzz.a" "${libs[@]}" -o "$out/fuzz-$target"
	corpus="$out/corpus-$target"
	mkdir -p "$corpus"
	cp tests/fuzz/corpus/"$target"/* "$corpus/" 2>/dev/null || true
	maxlen=${MAXLEN:-8192}
	case $target in
	kernel) cp kernels/*.c "$corpus/"; maxlen=${MAXLEN:-4096} ;;
	machine) cp machines/*.yaml tests/fixtures/machines/*.yml "$corpus/" ;;
	csv) cp tests/fixtures/kvm-xeon-6-207/*.csv "$corpus/" 2>/dev/null || true ;;
	fromraw) cp tests/fixtures/kvm-xeon-6-207/probe-o/benchmarks.json "$corpus/" ;;
	mca) cp tests/fixtures/incore/*-mca.json "$corpus/" ;;
	memhist) cp tests/fixtures/measure/memhist-* "$corpus/" 2>/dev/null || true ;;
	numa) cp tests/fixtures/numa/matrix-*.json "$corpus/" ;;
	statjson) cp tests/fixtures/measure/compare-*.json "$corpus/" ;;
	groups) cp share/groups/*.txt "$corpus/" ;;
	esac
	limit=(-max_total_time="$secs")
	[ -z "${RUNS:-}" ] || limit+=(-runs="$RUNS")
	# Allocation stacks 2 frames deep and a 16 MB quarantine: libclang allocates on every parse, and
	# the default 30-frame stacks and 256 MB quarantine cost a third of the kernel target's speed
	# (211 against 289 inputs/s on the Zen 5 guest). A report still names the allocating function,
	# and recent frees are still caught. An ASAN_OPTIONS from the environment wins.
	export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=2:quarantine_size_mb=16}
	t0=$(date +%s)
	set +e
	"$out/fuzz-$target" "${limit[@]}" -max_len=$maxlen -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-close_fd_mask=3 -artifact_prefix="$out/$target-" "$corpus" >"$out/fuzz-$target.log" 2>&1
	rc=$?
	set -e
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/fuzz-$target.log" | tail -1)
	crashes=$((rc == 0 ? 0 : 1))
	total_crashes=$((total_crashes + crashes))
	echo "fuzz $target: ${runs:-0} runs, $crashes crashes, $(($(date +%s) - t0)) s$([ $crashes -eq 0 ] || echo " (exit $rc; see $out/fuzz-$target.log and $out/$target-*)")"
done
[ $total_crashes -eq 0 ]
