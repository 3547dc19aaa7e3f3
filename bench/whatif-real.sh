#!/usr/bin/env bash
# archscope whatif on programs nobody here wrote (issue 49): for one site per program, whatif's
# predicted program speedup against the measured gain of really making that site cheaper by a
# parameter that changes that site's work and (as far as can be) nothing else:
#   numpy     numpy + OpenBLAS: a matrix-product phase (2 threads) then a sort phase; the site is
#             OpenBLAS's dgemm kernel; the variant does fewer products (same matrices)
#   parallel  a GNU parallel pipeline (--pipe, 2 jobs), each job `perl -pe lc | perl -ne uc`; the
#             site is perl's pp_uc; the variant upper-cases a shorter prefix of each line
#   make      a make -j2 build: gcc -O2 compiles plus one code-generation target run by perl; the
#             site is the generator's hottest perl op; the variant runs fewer generator iterations
#             (its output, and so the compiles, unchanged)
#   sort      coreutils sort --parallel=2, LC_ALL=C, on lines with a common prefix and a random
#             tail of the same total length; the site is libc's memcmp; the variant has a shorter
#             common prefix (the same lines in the same order of comparisons, less memcmp per one)
#   pigz      pigz -p 2: the compressor's own code (libz's deflate) has no symbol in Debian's
#             stripped libz, so it cannot be a site: printed as what whatif names there
# The line speedup s of the variant is measured, not assumed: perf (software cpu-clock samples,
# whole tree) counts the site's samples in the base and in the variant, s = 1 - variant/base,
# with the other samples' ratio beside it (1.00 when the parameter changed only the site). The
# prediction is whatif's program speedup at line speedup s (--speedups s,1: every run on the point
# that is compared, and the curve's end; its 95 % interval); the measured gain is
# 1 - median(variant)/median(base) over interleaved plain runs (± its spread: 1.4826 x the base
# runs' median absolute deviation over their median). Overhead: whatif's baseline (line speedup 0, sampling on) against the plain base
# runs' median (not interleaved with them: an estimate).
#   bench/whatif-real.sh [--quick] [PROGRAM...]
# --quick: fewer rounds, pairs and profiles. Missing programs are installed with
# apt-get when running as root (ARCHSCOPE_BENCH_INSTALL=0 turns that off), else skipped with a line
# that says so. The load average is printed per program: on a shared machine the other programs'
# load is in every number.
set -uo pipefail
cd "$(dirname "$0")/.."
A=$(realpath "${ARCHSCOPE:-build/archscope}")
[ -x "$A" ] || { echo "build first: bash scripts/setup.sh" >&2; exit 1; }
QUICK=0
[ "${1:-}" = --quick ] && { QUICK=1; shift; }
ONLY=" $* "
if [ $QUICK = 1 ]; then
	ROUNDS=3 PAIRS=5 PERF_RUNS=2
else
	ROUNDS=6 PAIRS=9 PERF_RUNS=3
fi
tmp=$(mktemp -d /tmp/whatif-real.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C

have() { # have PROGRAM PACKAGE NAME: installed, or installed now, or a skip line
	command -v "$1" >/dev/null && return 0
	if [ "$(id -u)" -eq 0 ] && [ "${ARCHSCOPE_BENCH_INSTALL:-1}" = 1 ]; then
		apt-get install -y -qq --no-install-recommends "$2" >/dev/null 2>&1 && command -v "$1" >/dev/null && return 0
	fi
	printf '%-9s skipped: %s is missing (Debian package %s)\n' "$3" "$1" "$2"
	return 1
}
have perf linux-perf perf || { echo "perf measures the variants' line speedup: nothing can be compared"; exit 0; }

# inputs, seeded: 24 MiB of prose-like text (4096 words); sort's lines (below)
python3 - "$tmp" <<'PY'
import random, sys
sys.path.insert(0, "bench")
import prose
d = sys.argv[1]
rng = random.Random(49)
prose.write(d + "/text", 24, rng)
# sort: 400000 lines of 160 bytes: a common prefix of P bytes, then a random tail; the same tails
# in both files, so sort makes the same comparisons and only memcmp's length differs
tails = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(160)) for _ in range(400000)]
for p in (150, 30):
    with open(d + "/lines%d" % p, "w") as f:
        for t in tails:
            f.write("x" * p + t[p:] + "\n")
PY
head -c $((6 << 20)) "$tmp/text" >"$tmp/text6"

# numpy: PRODUCTS matrix products of 700 x 700 (OpenBLAS, its threads), then a sort phase (numpy's
# own code, one thread; Debian's numpy and python3 are stripped, so only OpenBLAS and libc have sites)
cat >"$tmp/np.py" <<'PY'
import sys
import numpy as np
rng = np.random.default_rng(49)
a, b = rng.random((700, 700)), rng.random((700, 700))
s = 0.0
for _ in range(int(sys.argv[1])):
    s += float((a @ b)[0, 0])
x = rng.random(1_000_000)
for _ in range(2):
    s += float(np.sort(x)[7])
print(s)
PY

# make: four gcc -O2 compiles of archscope's common/ sources and one generated source, written
# by a perl generator that iterates N times (its output is one line whatever N)
mkdir -p "$tmp/obj"
{
	echo "SRC := $(ls src/common/*.c | head -4 | tr '\n' ' ')"
	echo 'OBJ := $(patsubst %.c,'"$tmp"'/obj/%.o,$(notdir $(SRC))) '"$tmp"'/obj/gen.o'
	echo 'all: $(OBJ)'
	echo 'vpath %.c src/common'
	echo "$tmp/obj/gen.c:"
	printf '\t@perl -e '"'"'my $$h = 0; for my $$i (1..$(GEN)) { $$h = ($$h * 31 + $$i) %% 1000003 } print "const long gen_h = $$h;\\n"'"'"' >$@\n'
	echo "$tmp/obj/%.o: %.c"
	printf '\t@gcc -O2 -std=c11 -D_GNU_SOURCE -Isrc -c $< -o $@\n'
	echo "$tmp/obj/gen.o: $tmp/obj/gen.c"
	printf '\t@gcc -O2 -c $< -o $@\n'
} >"$tmp/Makefile"
cat >"$tmp/make.sh" <<EOF
#!/bin/sh
rm -f $tmp/obj/*.o $tmp/obj/gen.c
exec make -s -j2 -f $tmp/Makefile GEN=\$1
EOF
chmod +x "$tmp/make.sh"

# parallel: GNU parallel splits the text into 1 MiB blocks, two jobs at a time, each job the pipeline
# `perl s1.pl | perl s2.pl L` (stage 1 lower-cases each line; stage 2 repeats it to 8 times its
# length, then upper-cases its first L bytes 48 times: L is the parameter, nothing else changes)
printf '%s\n' 'while (<STDIN>) { print lc($_) }' >"$tmp/s1.pl"
printf '%s\n' 'my ($l, $n) = ($ARGV[0], 0); while (<STDIN>) { my $t = $_ x 8; $n += length(uc(substr($t, 0, $l))) for 1..48 } print "$n\n"' >"$tmp/s2.pl"
printf '#!/bin/sh\nexec parallel --will-cite -j2 --pipe --block 2M "perl %s | perl %s $1" <%s\n' "$tmp/s1.pl" "$tmp/s2.pl" "$tmp/text6" >"$tmp/pipe.sh"
chmod +x "$tmp/pipe.sh"

# one plain run: COMMAND...: its wall time in s (its output to files, as whatif's runs)
plain_run() {
	python3 -c '
import subprocess, sys, time
out, err = open(sys.argv[1] + "/plain.out", "wb"), open(sys.argv[1] + "/plain.err", "wb")
t = time.perf_counter()
r = subprocess.run(sys.argv[2:], stdout=out, stderr=err)
t = time.perf_counter() - t
print("%.6f" % t if r.returncode == 0 else "fail")' "$tmp" "$@"
}

# the site's and the other samples in perf's cpu-clock profile of COMMAND: "SITE OTHER"
perf_site() {
	local pat=$1
	shift
	perf record -q -e cpu-clock -F 997 -o "$tmp/perf.data" -- "$@" >"$tmp/perf.out" 2>"$tmp/perf.err" || { echo "0 0"; return; }
	perf report -q -i "$tmp/perf.data" --stdio -n --sort sym 2>/dev/null | python3 -c '
import re, sys
pat, site, other = sys.argv[1], 0, 0
for line in sys.stdin:
    f = line.split()
    if len(f) < 4 or not f[1].isdigit():
        continue
    if re.search(pat, line):
        site += int(f[1])
    else:
        other += int(f[1])
print(site, other)' "$pat"
}

echo "# bench/whatif-real.sh$([ $QUICK = 1 ] && echo ' --quick') on $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), $(date -u +%Y-%m-%dT%H:%MZ)"
echo "# load average at the start: $(cut -d' ' -f1-3 /proc/loadavg) (a shared machine: other builds and benches ran beside these runs)"
echo "# per program: $PERF_RUNS perf profiles of each variant (s), whatif --by function --speedups s,1 --rounds $ROUNDS, $PAIRS interleaved plain pairs"
printf '%-9s %-34s %6s %6s %15s %16s %7s %6s %9s %s\n' program site s other predicted measured diff ok overhead load

# one program: NAME SITE_REGEX SITES -- BASE... -- VARIANT... (SITE_REGEX: the site in whatif's and
# perf's spelling; SITES: whatif's --sites, enough for the site to be among them)
bench_one() {
	local name=$1 pat=$2 sites=$3
	shift 4
	case "$ONLY" in "  ") ;; *" $name "*) ;; *) return ;; esac
	local base=() var=()
	while [ "$1" != -- ]; do base+=("$1"); shift; done
	shift
	var=("$@")
	local load0 i
	load0=$(cut -d' ' -f1 /proc/loadavg)
	# the line speedup the variant really gives: perf profiles of each, interleaved
	local ps=() pv=()
	for ((i = 0; i < PERF_RUNS; i++)); do
		ps+=("$(perf_site "$pat" "${base[@]}")")
		pv+=("$(perf_site "$pat" "${var[@]}")")
	done
	local s
	s=$(python3 -c '
import sys
p = [int(x) for x in sys.argv[1].split()]
v = [int(x) for x in sys.argv[2].split()]
b = sum(p[0::2])
print("%.2f" % min(1.0, max(0.01, 1 - sum(v[0::2]) / b)) if b else "")' "${ps[*]}" "${pv[*]}")
	local rounds=$ROUNDS
	if [ -z "$s" ]; then # no such symbol: what whatif names there, from one round
		printf '%-9s perf saw no sample in a symbol matching /%s/ (stripped code has none)\n' "$name" "$pat"
		s=1 rounds=1
	fi
	# whatif's prediction at that line speedup (and at 1, the curve's end), all its runs on it
	"$A" whatif -q --json --by function --sites "$sites" --speedups "$(python3 -c "import sys; s = float(sys.argv[1]); print('%g,1' % s if s < 0.99 else '1')" "$s")" \
		--rounds "$rounds" -- "${base[@]}" >"$tmp/$name.json" 2>"$tmp/$name.err"
	local rc=$?
	if [ $rc -ne 0 ]; then
		printf '%-9s whatif exited %d: %s\n' "$name" $rc "$(tail -1 "$tmp/$name.err")"
		return
	fi
	# the measured gain: interleaved plain runs, the order drawn per pair
	local tb=() tv=()
	for ((i = 0; i < PAIRS; i++)); do
		if [ $((RANDOM % 2)) = 0 ]; then
			tb+=("$(plain_run "${base[@]}")")
			tv+=("$(plain_run "${var[@]}")")
		else
			tv+=("$(plain_run "${var[@]}")")
			tb+=("$(plain_run "${base[@]}")")
		fi
	done
	python3 - "$tmp/$name.json" "$name" "$pat" "$load0" "${ps[*]}" "${pv[*]}" "${tb[*]}" "${tv[*]}" <<'PY'
import json, re, statistics, sys
path, name, pat, load0 = sys.argv[1:5]
ps = [int(x) for x in sys.argv[5].split()]
pv = [int(x) for x in sys.argv[6].split()]
tb = [float(x) for x in sys.argv[7].split() if x != "fail"]
tv = [float(x) for x in sys.argv[8].split() if x != "fail"]
r = json.load(open(path))["results"]
load1 = open("/proc/loadavg").read().split()[0]
named = ", ".join("%s (%d samples)" % (s["site"], s["samples"]) for s in r["sites"]) or "none"
site = next((s for s in r["sites"] if re.search(pat, s["site"])), None)
if site is None:
    print("%-9s no whatif site matches /%s/: whatif named %s; %d profiling samples in %.2f s"
          % (name, pat, named, r["profile_samples"], r["profile_wall"]))
    sys.exit()
sb, ob = sum(ps[0::2]), sum(ps[1::2])
sv, ov = sum(pv[0::2]), sum(pv[1::2])
if sb == 0 or not tb or not tv:
    sys.exit(print("%-9s perf saw no sample in /%s/ or every plain run failed" % (name, pat)))
s = 1 - sv / sb
other = ov / ob if ob else float("nan")
pts = [(0.0, 0.0, 0.0)] + [(p["line_speedup"], p["program_speedup"], p["ci"] or 0.0) for p in site["points"] if p["line_speedup"] > 0]
def interp(x):
    x = max(0.0, min(x, pts[-1][0]))
    for (x0, y0, c0), (x1, y1, c1) in zip(pts, pts[1:]):
        if x0 <= x <= x1:
            f = (x - x0) / (x1 - x0)
            return y0 + f * (y1 - y0), c0 + f * (c1 - c0)
    return pts[-1][1], pts[-1][2]
pred, ci = interp(s)
mb, mv = statistics.median(tb), statistics.median(tv)
meas = 1 - mv / mb
spread = 1.4826 * statistics.median(abs(t - mb) for t in tb) / mb
diff = 100 * (pred - meas)
over = r["baseline_period"] / mb - 1 if r["progress_kind"] == "end_to_end" else float("nan")
print("%-9s %-34s %6.3f %6.2f %+6.1f%% ±%5.1f%% %+6.1f%% (±%4.1f%%) %+6.1f %6s %+8.1f%% %s" % (
    name, site["site"][:34], s, other, 100 * pred, 100 * ci, 100 * meas, 100 * spread, diff,
    "yes" if abs(diff) <= 5 else "no", 100 * over, load0 + "/" + load1))
print("  perf samples base site %d other %d, variant site %d other %d; plain medians base %.3f s variant %.3f s (%d/%d runs)"
      % (sb, ob, sv, ov, mb, mv, len(tb), len(tv)))
print("  whatif: %s, verdict %s, baseline %.3f s (spread %s), %d runs, %d disturbed; named %s" % (
    site["site"], site["verdict"], r["baseline_period"], "%.3f" % r["baseline_spread"] if r.get("baseline_spread") is not None else "-",
    r["runs"], r.get("runs_noisy", 0), named))
print("  curve: " + ", ".join("%.2f: %+.1f%% ±%s" % (x, 100 * y, "%.1f%%" % (100 * c) if c else "-") for x, y, c in pts[1:]))
PY
}

if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import numpy' 2>/dev/null ||
	{ [ "$(id -u)" -eq 0 ] && [ "${ARCHSCOPE_BENCH_INSTALL:-1}" = 1 ] &&
		apt-get install -y -qq --no-install-recommends python3-numpy libopenblas0-pthread >/dev/null 2>&1; }; then
	bench_one numpy 'dgemm_kernel' 1 -- /usr/bin/python3 "$tmp/np.py" 60 -- /usr/bin/python3 "$tmp/np.py" 30
else
	echo "numpy     skipped: numpy is missing (Debian package python3-numpy)"
fi
have parallel parallel parallel && have perl perl parallel &&
	bench_one parallel 'pp_uc' 1 -- "$tmp/pipe.sh" 320 -- "$tmp/pipe.sh" 80
have make make make && have perl perl make && have gcc gcc make &&
	bench_one make 'Perl_pp_(multiply|modulo|add|iter)' 2 -- "$tmp/make.sh" 6000000 -- "$tmp/make.sh" 3000000
have sort coreutils sort && bench_one sort 'memcmp' 1 -- sort --parallel=2 -S 256M "$tmp/lines150" -o "$tmp/sorted" -- \
	sort --parallel=2 -S 256M "$tmp/lines30" -o "$tmp/sorted"
have pigz pigz pigz && bench_one pigz 'deflate|longest_match' 3 -- pigz -p 2 -6 -c "$tmp/text" -- pigz -p 2 -1 -c "$tmp/text"
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
