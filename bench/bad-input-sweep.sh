#!/usr/bin/env bash
# A sweep of bad input over the newer commands (issue 35's "done when": no hang, no silent result,
# no wrong exit). Each case runs under `timeout` and is classified:
#   hang     it ran past the time limit (SWEEP_TIMEOUT, default 30 s)
#   crash    a signal ended it (not SIGINT), or a sanitizer reported
#   wrong    the exit status is not the one expected (2 for bad input)
#   silent   exit 0 where an error was due, no output or a wrong result where one was due, or a
#            name that ran as code
#   unclear  the error message does not quote its subject (the file, option value, name)
# and prints a count per class and the failing cases, each with the area it belongs to (35a:
# stat/regress/phases/compare program handling, duplicates and stat's own options; 35b: readers,
# plots, numbers, JSON, messages; 36: stack; 52: issue 52's readers, values, parameters, messages).
#
#   bench/bad-input-sweep.sh [ARCHSCOPE]   (default build/archscope; the ASan build works too)
#   results: bench/results/bad-input-sweep-kvm-xeon-6-207.txt (SWEEP_OUT= to change)
set -u
cd "$(dirname "$0")/.." || exit 1
root=$(pwd)
bin=${1:-$root/build/archscope}
[ -x "$bin" ] || { echo "no $bin: build first (bash scripts/setup.sh)" >&2; exit 2; }
out=${SWEEP_OUT:-bench/results/bad-input-sweep-kvm-xeon-6-207.txt}
case $out in /*) ;; *) out=$root/$out ;; esac
limit=${SWEEP_TIMEOUT:-30}
tmp=$(mktemp -d /tmp/archscope-sweep.XXXXXX)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# --- inputs ---------------------------------------------------------------------------------
fx=$root/tests/fixtures
machine=$root/machines/kvm-xeon-6-207.yaml
kernel=$root/kernels/3d-7pt.c
mkfifo fifo
mkdir dir
printf '1\0002,3\n' >nul
printf '# caf\351\n1,2\n' >latin1
printf '\377\376a\000b\000' >utf16
: >empty
printf '# only a comment\n\n' >comments
ln -s dir linkdir
touch afile
truncate -s 5G huge 2>/dev/null || : >huge
"$bin" stat -q -r 3 -e task-clock -o good.json -- true >/dev/null 2>&1 ||
	"$bin" stat -q --json -r 3 -e task-clock -- true >good.json 2>/dev/null
grep -q '"task-clock"' good.json || { echo "cannot make a stat result to compare with" >&2; exit 1; }
cp "$fx/measure/memhist-amd.jsonl" samples.jsonl
cp "$fx/kvm-xeon-6-207/caches.csv" curve.csv
# machine files that lie: a size that contradicts sets x ways x line, a 1 TiB L1, hex, a cut file
sed '0,/size per group: 49.15 kB/s//size per group: 64.00 kB/' "$machine" >m-size.yaml
python3 - "$fx/tune/zen5-published.yaml" m-huge.yaml <<'PY'
import re, sys
t = open(sys.argv[1]).read()
t = re.sub(r"(- level: L1\n  cache per group: \{)sets: \d+", r"\1sets: 1431655765", t, count=1)
t = re.sub(r"(- level: L1\n(?:  .*\n)*?  size per group: ).*", r"\g<1>1 TiB", t, count=1)
open(sys.argv[2], "w").write(t)
PY
sed '0,/sets: 1$/s//sets: 0x1/' "$machine" >m-hex.yaml
head -n "$(($(grep -n '^archscope:' "$machine" | cut -d: -f1) + 40))" "$machine" >m-cut.yaml
sed 's/value: 32.0/value: 32abc/' "$fx/tune/zen5-published.yaml" >m-regs.yaml
printf 'x,y\n0x10,5\n32,7\n' >hex.csv
printf '{"latency_cy": 1e999, "data_src": 1}\n' >bignum.jsonl
# stat results with a repeated key and a repeated event
python3 - good.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["results"]["events"]
json.dump({**d, "results": {**d["results"], "events": ev + ev[:1]}}, open("dup-event.json", "w"))
t = open(sys.argv[1]).read()
open("dup-key.json", "w").write(t.replace('"results": {', '"results": {"events": [], ', 1))
PY
cp good.json "$(printf 'caf\351.json')"
cp curve.csv "$(printf 'c\351.csv')"
printf '#!/nonexistent/interpreter\necho hi\n' >noint.sh && chmod +x noint.sh
printf 'echo hi\n' >noexec.sh
cp "$(type -P sleep)" "it's"
mkdir ro && chmod 555 ro
bad=$(printf 'caf\351')
hostile="N'.system('touch ran').'\`touch ran\`"

# --- the runner -----------------------------------------------------------------------------
declare -A count=([ok]=0 [hang]=0 [crash]=0 [wrong]=0 [silent]=0 [unclear]=0)
failing=()
n=0
STDIN=/dev/null
# c ID AREA EXPECT SUBJECT [VAR=VALUE...] -- ARGS...: runs archscope ARGS (env VAR=VALUE...).
# EXPECT: 2 (bad input: exit 2, SUBJECT quoted on stderr); err (exit 1 or 2, SUBJECT quoted);
# out (exit 0 and something on stdout); json (exit 0, strict UTF-8 JSON holding SUBJECT, read from
# ./j.json when the case wrote it with -o j.json, else from stdout); py:EXPR (exit 0, EXPR true of
# that JSON d); nocode (exit 0 and ./ran not created).
c() {
	local id=$1 area=$2 expect=$3 subject=$4
	shift 4
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	n=$((n + 1))
	rm -f ran j.json
	env "${envs[@]}" timeout -k 5 "$limit" "$bin" "$@" <"$STDIN" >o 2>e
	local rc=$? class=ok why=""
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		class=hang why="no answer in $limit s"
	elif grep -q "AddressSanitizer\|runtime error:\|LeakSanitizer" e; then
		class=crash why=$(grep -m1 "AddressSanitizer\|runtime error:\|LeakSanitizer" e)
	elif [ "$rc" -gt 128 ] && [ "$rc" -ne 130 ]; then
		class=crash why="signal $((rc - 128))"
	else
		case $expect in
		2 | err)
			if [ "$rc" -eq 0 ]; then
				class=silent why="exit 0: $(head -c 120 o | tr '\n' ' ')"
			elif [ "$expect" = 2 ] && [ "$rc" -ne 2 ]; then
				class=wrong why="exit $rc: $(grep -m1 . e | cut -c1-160)"
			elif ! grep -qF -- "$subject" e; then
				class=unclear why="no '$subject' in: $(grep -m1 . e | cut -c1-160)"
			fi ;;
		out)
			if [ "$rc" -ne 0 ]; then class=wrong why="exit $rc: $(grep -m1 . e | cut -c1-160)"
			elif [ ! -s o ]; then class=silent why="exit 0, no output"; fi ;;
		json | py:*)
			local expr=True
			[ "$expect" = json ] || expr=${expect#py:}
			if [ "$rc" -ne 0 ]; then
				class=wrong why="exit $rc: $(grep -m1 . e | cut -c1-160)"
			elif ! python3 - "$subject" "$expr" <<'PY' 2>w; then
import json, sys
import os
d = json.loads(open("j.json" if os.path.exists("j.json") else "o", "rb").read().decode("utf-8"))
assert sys.argv[1] in json.dumps(d, ensure_ascii=False), "no " + sys.argv[1]
assert eval(sys.argv[2]), "not " + sys.argv[2]
PY
				class=silent why="exit 0, $(tail -1 w | cut -c1-120)"
			fi ;;
		nocode)
			if [ -e ran ]; then class=silent why="a name ran as code"
			elif [ "$rc" -ne 0 ]; then class=wrong why="exit $rc: $(grep -m1 . e | cut -c1-160)"; fi ;;
		esac
	fi
	count[$class]=$((count[$class] + 1))
	local shown="archscope $*"
	[ ${#envs[@]} -eq 0 ] || shown="${envs[*]} $shown"
	[ "$STDIN" = /dev/null ] || shown="$shown <$STDIN"
	shown=$(printf '%s' "$shown" | sed "s|$tmp/||g; s|$root/||g" | LC_ALL=C tr -c '[:print:]' '?' | cut -c1-150)
	printf '%-4s %-5s %-7s %-7s %s\n' "$n" "$area" "${expect// /}" "$class" "$shown" >>cases
	if [ "$class" != ok ]; then
		failing+=("$class $id ($area): $shown -- $why")
	fi
}

# --- special files into every reader (35b) -------------------------------------------------
readers=(
	"memhist-from|memhist --from FILE"
	"numa-model|numa model --matrix FILE --flow 0:0:1"
	"numa-predict|numa load 0:0:1 --dry-run --predict FILE"
	"numa-topology|numa load 0:0:1 --dry-run --topology FILE"
	"analyze|analyze --method monotone FILE"
	"compare-a|compare FILE good.json"
	"compare-b|compare good.json FILE"
	"tune-stencil|tune stencil --short -m FILE"
	"tune-gemm|tune gemm --short -m FILE"
	"model-m|model $kernel -D N 100 -D M 100 -m FILE"
	"model-kernel|model FILE -D N 100 -m $machine"
	"machine-validate|machine validate FILE"
	"machine-show|machine show FILE"
	"machine-diff|machine diff FILE $machine"
)
inputs=(fifo /dev/zero /dev/null dir nul latin1 utf16 empty comments missing huge linkdir)
for r in "${readers[@]}"; do
	name=${r%%|*} cmd=${r#*|}
	for in in "${inputs[@]}"; do
		read -ra args <<<"${cmd//FILE/$in}"
		c "$name:$in" 35b 2 "$in" -- "${args[@]}"
	done
	read -ra args <<<"${cmd//FILE/-}"
	STDIN=/dev/zero c "$name:stdin-zero" 35b 2 "standard input" -- "${args[@]}"
done
c "topology:xmlfile-fifo" 35b 2 fifo HWLOC_XMLFILE=fifo -- topology
c "topology:xmlfile-nul" 35b 2 nul HWLOC_XMLFILE=nul -- topology
c "topology:xmlfile-html" 35b 2 "'$fx/measure/README.md'" HWLOC_XMLFILE="$fx/measure/README.md" -- topology
c "stat-M:group-dir" 35a 2 "nosuch" -- stat -M nosuch -- true

# --- unusable output directories, before anything runs (35b; stack 36) --------------------
plotters=(
	"regress|35b|regress --param N=1,2 -r 1 --plot DIR -- touch ran {N}"
	"phases|35b|phases --plot DIR -- touch ran"
	"stack|36|stack -t 1 -r 1 --plot DIR -- touch ran"
	"memhist|35b|memhist --plot DIR --from samples.jsonl"
	"bench|35b|bench copy --sweep --plot DIR"
	"probe-plot|35b|probe clock --plot DIR"
	"probe-raw|35b|probe clock --raw DIR"
	"numa-matrix|35b|numa matrix --plot DIR"
	"tune-gemm|35b|tune gemm --short --plot DIR"
	"tune-stencil|35b|tune stencil --short -m $fx/tune/zen5-published.yaml --plot DIR"
	"model|35b|model $kernel -D N 10:20:10 -D M 100 -m $machine --plot DIR"
)
dirs=(missing/deep afile linkdir)
[ "$(id -u)" -eq 0 ] || dirs+=(ro/sub ro)
for p in "${plotters[@]}"; do
	IFS='|' read -r name area cmd <<<"$p"
	for d in "${dirs[@]}"; do
		read -ra args <<<"${cmd//DIR/$d}"
		c "$name-plot:$d" "$area" 2 "$d" -- "${args[@]}"
	done
done
# stat -o: checked before the program runs (35a)
for o in /dev/full dir missing/deep/x.json linkdir; do
	c "stat-o:$o" 35a 2 "$o" -- stat -q -r 1 -e task-clock -o "$o" -- touch ran
done

# --- numbers: decimal, whole, bounded (35b; stat's own options 35a) ------------------------
c "stat-r-010" 35a 'py:d["results"]["runs"]==10' task-clock -- stat -q -o j.json -r 010 -e task-clock -- true
for v in 0x10 32abc -1 1e3 " 5" "" 99999999999999999999; do
	c "stat-r:$v" 35a 2 "'$v'" -- stat -r "$v" -- true
done
c "regress-r" 35a 2 0x2 -- regress -r 0x2 --param N=1,2 -- true {N}
c "regress-param" 35b 2 0x2 -- regress --param N=1,0x2 -- true {N}
c "regress-param-inf" 35b 2 inf -- regress --param N=1,inf -- true {N}
c "phases-interval" 35a 2 1x -- phases --interval 1x -- true
c "phases-segments" 35b 2 2x -- phases --segments 2x -- true
c "memhist-bins" 35b 2 lin:1:10x -- memhist --bins lin:1:10x --from samples.jsonl
c "memhist-ldlat" 35b 2 0x3 -- memhist --ldlat 0x3 --from samples.jsonl
c "memhist-bignum" 35b 2 bignum.jsonl -- memhist --from bignum.jsonl
c "numa-load-duration" 35b 2 abc -- numa load 0:0:1 --dry-run --duration abc
c "numa-load-flow" 35b 2 0:0:1x -- numa load 0:0:1x --dry-run
c "numa-model-flow" 35b 2 0:0:0x1 -- numa model --matrix "$fx/numa/matrix-2node.json" --flow 0:0:0x1
c "tune-registers" 35b 2 32abc -- tune gemm --short --registers 32abc
c "tune-step" 35b 2 0x8 -- tune gemm --short --step 0x8
c "tune-file-registers" 35b 2 32abc -- tune gemm --short -m m-regs.yaml
c "bench-size" 35b 2 5x -- bench copy -s 5x
c "bench-size-huge" 35b 2 1e999 -- bench copy -s 1e999
c "model-D-hex" 35b 2 0x10 -- model "$kernel" -D N 0x10 -D M 10 -m "$machine"
c "model-D-sweep" 35b 2 10:20x -- model "$kernel" -D N 10:20x -D M 10 -m "$machine"
c "analyze-diameter" 35b 2 inf -- analyze --method qt --diameter inf curve.csv
c "analyze-hex-row" 35b 2 "hex.csv': line 2" -- analyze --method monotone hex.csv
c "compare-alpha" 35a 2 0x1 -- compare --alpha 0x1 good.json good.json
c "machine-size" 35b 2 "contradicts cache per group" -- machine validate m-size.yaml
c "machine-hex" 35b 2 "0x1" -- machine validate m-hex.yaml
c "machine-cut" 35b 2 "looks cut" -- machine validate m-cut.yaml
c "machine-1TiB" 35b 2 "first-level" -- machine validate m-huge.yaml
c "tune-1TiB" 35b 2 "first-level" -- tune gemm --short -m m-huge.yaml
c "tune-stencil-1TiB" 35b 2 "first-level" -- tune stencil --short -m m-huge.yaml
c "model-size" 35b 2 "contradicts" -- model "$kernel" -D N 100 -D M 100 -m m-size.yaml

# --- duplicate values (35a) -----------------------------------------------------------------
c "regress-dup-values" 35a 2 "the value 1 is given twice" -- regress --param N=1,1,2 -- true {N}
c "stat-dup-event" 35a 2 task-clock -- stat -r 1 -e task-clock,task-clock -- true
c "compare-dup-event" 35a 2 task-clock -- compare -e task-clock,task-clock good.json good.json
c "compare-empty-filter" 35a 2 "-e" -- compare -e "" good.json good.json
c "compare-dup-key-file" 35a 2 dup-key.json -- compare dup-key.json good.json
c "compare-dup-event-file" 35a 2 dup-event.json -- compare dup-event.json good.json

# --- hostile names: data, never code (35b) -------------------------------------------------
c "regress-name-plot" 35b nocode "" -- regress -q --param "$hostile=1,2,3" -r 2 -e task-clock --plot p1 -- sh -c ": {$hostile}"
c "phases-program-quote" 35b nocode "" -- phases -q --plot p2 -- "./it's" 0.3
c "memhist-file-quote" 35b nocode "" -- memhist -q --plot p3 --from samples.jsonl
c "stat-event-quote" 35a 2 "x'y" LIBPFM_FORCE_PMU=icx -- stat -r 1 -e "x'y" -- true
c "stat-json-quote" 35a json "it's" -- stat -q -o j.json -r 1 -e task-clock -- "./it's" 0

# --- bytes that are not UTF-8 (35b) ---------------------------------------------------------
c "stat-json-arg" 35b json "caf�" -- stat -q -o j.json -r 2 -e task-clock -- /bin/echo "$bad"
c "regress-json-param" 35b json "N�" -- regress -q -o j.json --param "$(printf 'N\377')=1,2" -r 2 -e task-clock -- sh -c ": {$(printf 'N\377')}"
c "analyze-json-path" 35b json "c�.csv" -- analyze --json --method monotone "$(printf 'c\351.csv')"
c "compare-json-path" 35b json task-clock -- compare --json "$bad.json" good.json
c "memhist-json-path" 35b json samples -- memhist --json --from samples.jsonl
c "stat-event-bytes" 35a 2 "$(printf '\377')" LIBPFM_FORCE_PMU=icx -- stat -r 1 -e "$(printf '\377')" -- true
c "machine-path-bytes" 35b 2 "$bad.yaml" -- machine validate "$bad.yaml"

# --- missing programs (35a; memhist 35b) ----------------------------------------------------
for prog in /nonexistent nosuchprog ./noexec.sh ./noint.sh ./dir; do
	c "stat-prog:$prog" 35a 2 "$prog" -- stat -r 1 -- "$prog"
	c "phases-prog:$prog" 35a 2 "$prog" -- phases -- "$prog"
	c "regress-prog:$prog" 35a 2 "$prog" -- regress --param N=1,2 -r 1 -- "$prog" {N}
done
c "noint-names-interpreter" 35a 2 /nonexistent/interpreter -- stat -r 1 -- ./noint.sh
c "memhist-prog" 35b 2 nosuchprog -- memhist -- nosuchprog

# --- the environment (35b) ------------------------------------------------------------------
c "stat-tmpdir" 35b err "$tmp/no/such" TMPDIR="$tmp/no/such" -- stat -q -r 1 -- true
c "tune-tmpdir" 35b err "$tmp/no/such" TMPDIR="$tmp/no/such" -- tune gemm -q --short -m "$fx/tune/zen5-published.yaml"

# --- issue 52: the last readers, values, parameters, messages (area 52) --------------------
# the parse cache: every entry a FIFO must not hang model
mkdir -p cache
ARCHSCOPE_CACHE_DIR=$tmp/cache "$bin" model "$kernel" -D N 100 -D M 100 -m "$machine" >/dev/null 2>&1
for f in cache/*; do [ -f "$f" ] && rm -f "$f" && mkfifo "$f"; done
c "model-cache-fifo" 52 out "" ARCHSCOPE_CACHE_DIR="$tmp/cache" -- model "$kernel" -D N 100 -D M 100 -m "$machine"
# metric groups (stat -M): one bad line each, in a share directory of their own
mkdir -p share/groups
group() { # group NAME EVENTS-AND-METRICS...: a generic group file
	local name=$1
	shift
	{ printf 'SHORT test group\n\nEVENTSET generic\n'; printf '%s\n' "$@"; } >"share/groups/$name.txt"
}
group G-OK task-clock page-faults METRICS 'Fault rate | per ms | $2 / $1 * 1e6'
group G-DUP task-clock task-clock METRICS 'x | 1 | $1'
group G-REF99 task-clock METRICS 'x | 1 | $99'
group G-TRAIL task-clock METRICS 'x | 1 | $1 +'
group G-HEX task-clock METRICS 'x | 1 | 0x10'
group G-BIG task-clock METRICS 'x | 1 | 1e999'
group G-UNKNOWN task-clock METRICS 'x | 1 | nosuch / $1'
group G-LONG task-clock METRICS "x | 1 | \$1 $(printf '+ 1 %.0s' $(seq 1 150))"
printf 'SHORT t\n\nEVENTSET generic\ntask-\000clock\nMETRICS\nx | 1 | $1\n' >share/groups/G-NUL.txt
printf 'SHORT t\n\nEVENTSET generic\ntask-clock\ncaf\351\nMETRICS\nx | 1 | $1\n' >share/groups/G-LATIN1.txt
truncate -s 5G share/groups/G-HUGE.txt 2>/dev/null || : >share/groups/G-HUGE.txt
mkfifo share/groups/G-FIFO.txt
c "stat-M-ok" 52 json "Fault rate" ARCHSCOPE_SHARE_DIR="$tmp/share" -- stat -q -o j.json -r 1 -M G-OK -- true
for g in DUP REF99 TRAIL HEX BIG UNKNOWN LONG NUL LATIN1 HUGE FIFO; do
	c "stat-M:$g" 52 2 "G-$g.txt" ARCHSCOPE_SHARE_DIR="$tmp/share" -- stat -r 1 -M "G-$g" -- touch ran
done
# duplicate keys in every JSON reader; impossible values in compare
python3 - "$fx/numa/matrix-2node.json" good.json <<'PY'
import json, sys
t = open(sys.argv[1]).read()
i = t.index('"bandwidth_gbs"')
open("dup-matrix.json", "w").write(t[:i] + '"bandwidth_gbs": [[1, 1], [1, 1]], ' + t[i:])
d = json.load(open(sys.argv[2]))
ev = d["results"]["events"]
neg = json.loads(json.dumps(d)); big = json.loads(json.dumps(d))
neg["results"]["events"][0]["values"][0] = -5
big["results"]["events"][0]["values"][0] = 1e308
json.dump(neg, open("neg-counts.json", "w")); json.dump(big, open("big-mean.json", "w"))
PY
printf '{"latency_cy": 10, "latency_cy": 900, "data_src": 1}\n' >dup.jsonl
printf '1,2x\n3,4\n4,5\n' >bad-header.csv
c "numa-model-dup-key" 52 2 dup-matrix.json -- numa model --matrix dup-matrix.json --flow 0:1:1
c "memhist-dup-key" 52 2 dup.jsonl -- memhist --from dup.jsonl
c "analyze-bad-header" 52 2 bad-header.csv -- analyze --method monotone bad-header.csv
c "compare-negative" 52 2 neg-counts.json -- compare neg-counts.json good.json
c "compare-1e308" 52 2 big-mean.json -- compare big-mean.json good.json
c "compare-e-nosuch" 52 2 nosuch -- compare -e nosuch good.json good.json
c "compare-stdin-twice" 52 2 "standard input" -- compare - -
# probe -o --from-raw with bad saved results: the input named, exit 2
mkdir -p raw-bad raw-big
"$bin" probe --quick clock --raw raw-ok -q --json >probe.json 2>/dev/null
cp -r raw-ok/. raw-bad/ 2>/dev/null; cp -r raw-ok/. raw-big/ 2>/dev/null
printf '{"benchmarks": ' >raw-bad/benchmarks.json
python3 - raw-big/probe-results.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["clock"]["value"] = 1e308
json.dump(d, open(sys.argv[1], "w"))
PY
c "probe-from-raw-bad" 52 2 benchmarks.json -- probe -o fr1.yaml --from-raw raw-bad
c "probe-from-raw-1e308" 52 2 probe-results.json -- probe -o fr2.yaml --from-raw raw-big
# parameters and options: checked, never dropped, before anything runs
c "regress-two-params" 52 2 "--param is given 2 times" -- regress -q -r 1 -e task-clock --param N=1,2 --param M=3,4 -- sh -c 'case "{N}{M}" in *"{"*) touch ran ;; esac'
c "regress-param-trailing-comma" 52 2 "N=1,2," -- regress --param N=1,2, -- touch ran {N}
c "phases-e-empty" 52 2 "-e" -- phases -e '' -- touch ran
c "stack-t-space" 52 2 "' 5'" -- stack -t ' 5' -- touch ran
c "events-pmu-empty" 52 2 "--pmu" -- events --pmu ''
c "phases-interval-float" 52 err "1000 ms" -- phases --interval 1e3 -- touch ran
c "probe-plan-plot" 52 2 "--plan" -- probe --plan --plot pp
c "probe-plan-raw" 52 2 "--plan" -- probe --plan --raw pr
for cmd in "stat -r 1 -o '' -- touch ran" "regress --param N=1,2 -r 1 -o '' -- touch ran {N}" "phases -o '' -- touch ran" \
	"compare -o '' good.json good.json" "report -o '' --from probe.json" "probe -o '' clock"; do
	eval "set -- $cmd"
	c "$1-o-empty" 52 2 "-o" -- "$@"
done
c "report-save-file" 52 2 afile -- report -o page.html --save afile/x
c "report-t-too-many" 52 2 "4096" -- report -o page.html -t 4096
c "memhist-thresholds" 52 2 5x -- memhist --thresholds 5x -- true
c "tune-cpu-not-allowed-m" 52 2 1000 -- tune gemm --short --cpu 1000 -m "$fx/tune/zen5-published.yaml"
c "tune-cpu-not-allowed" 52 2 1000 -- tune gemm --short --cpu 1000
c "tune-unknown-kernel" 52 2 foo -- tune foo
c "libpfm-force-nosuch" 52 2 LIBPFM_FORCE_PMU LIBPFM_FORCE_PMU=nosuch -- stat -r 1 -e task-clock -- true
c "model-D-space" 52 2 "N 100" -- model "$kernel" -D 'N 100' -m "$machine"
c "regress-long-name" 52 2 "70 characters, more than the 63 allowed" -- regress --param "$(printf 'P%.0s' $(seq 1 70))=1,2" -- true
c "stack-t-huge" 52 2 100000 -- stack -t 100000 -- true
c "stat-empty-program" 52 2 "empty" -- stat -r 1 -- ''
c "stack-noexec" 52 2 noexec.sh -- stack -t 1 -r 1 -- ./noexec.sh
printf 'exit 0\n' >noshebang.sh && chmod +x noshebang.sh
c "stack-noshebang" 52 out "" -- stack -t 1 -r 1 -- ./noshebang.sh
c "stack-preload-data" 52 2 ARCHSCOPE_PRELOAD ARCHSCOPE_PRELOAD="$tmp/afile" -- stack -t 1 -r 1 -- true
c "stack-preload-dir" 52 2 ARCHSCOPE_PRELOAD ARCHSCOPE_PRELOAD="$tmp/dir" -- stack -t 1 -r 1 -- true
c "stack-killed-child" 52 'py:all(r["speedup_estimated"] > 0.05 for r in d["results"]["runs"])' speedup \
	-- stack -q --json -t 1,2 -r 1 -- sh -c 'sleep 5 & kill -9 $!; wait; i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'

# --- the report -----------------------------------------------------------------------------
{
	echo "# bench/bad-input-sweep.sh, $(date -u +%Y-%m-%d), archscope $(git -C "$root" rev-parse --short HEAD 2>/dev/null)$(git -C "$root" diff --quiet -- . ':!bench/results' 2>/dev/null || echo +changes)"
	echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) CPUs, $(uname -r); load $(cut -d' ' -f1-3 /proc/loadavg); binary $(basename "$(dirname "$bin")")/$(basename "$bin"); timeout $limit s"
	echo "# areas: 35a stat/regress/phases/compare program handling, duplicates, stat's options; 35b readers, plots,"
	echo "#        numbers, JSON, messages; 36 stack; 52 the last readers (caches, metric groups, JSON keys), values,"
	echo "#        parameters, checks before running, messages (issue 52)"
	echo
	echo "$n cases: ok ${count[ok]}, hang ${count[hang]}, crash ${count[crash]}, wrong exit ${count[wrong]}, silent ${count[silent]}, unclear message ${count[unclear]}"
	for a in 35a 35b 36 52; do
		echo "  $a: $(awk -v a="$a" '$2 == a' cases | wc -l) cases, $(awk -v a="$a" '$2 == a && $4 != "ok"' cases | wc -l) failing"
	done
	echo
	echo "failing cases (${#failing[@]}):"
	for f in "${failing[@]}"; do echo "  $f"; done
	echo
	echo "every case (n, area, expected, class, command):"
	cat cases
} >"$out"
sed -n '1,/^every case/p' "$out" | head -n -1
