#!/usr/bin/env bash
# archscope whatif beside Coz itself (Debian's coz-profiler, issue 49), in one run: on Coz-style
# example programs (examples/whatif/coz/: toy.c, two loops of different length per round and a
# progress point, as Coz's toy benchmark; progress.c, a forked pair of processes counting one
# progress point) and on two real programs (pigz, coreutils sort --parallel), per program:
#   - the sites each found (Coz: the lines its experiments selected; whatif: its top sites),
#   - the curves side by side at whatif's line speedups (Coz's experiments binned to the nearest
#     of them, its baseline the speedup-0 experiments, program speedup = 1 - period/baseline
#     period, period = summed duration / summed progress visits, as Coz's own plot computes it),
#   - the overheads: Coz's one profiling run against a plain run of the same command (Coz
#     inserts its delays into that run: what a user waits); whatif's baseline run (sampling on,
#     no delay) against the plain runs, and the whole whatif profile's wall time in plain runs,
#   - whether Coz's profile is empty (no experiment with progress: Coz's "No data to plot").
# Coz 0.2.2 reads DWARF up to version 4 through libelfin (version 5, gcc 12's default, ends it
# with "unknown compilation unit version 5"), so the examples are built with -gdwarf-3 for both.
# It needs debug information for the real programs too: Debian's -dbgsym packages come from the
# debian-debug archive, which is used when apt can install them, else said so; Coz runs them with
# --binary-scope=% (every binary, as their main executables are stripped), whatif with --by function.
#   bench/whatif-vs-coz.sh [--quick] [PROGRAM...]
# --quick: shorter runs, 2 rounds, 2 line speedups.
set -uo pipefail
cd "$(dirname "$0")/.."
A=$(realpath "${ARCHSCOPE:-build/archscope}")
[ -x "$A" ] || { echo "build first: bash scripts/setup.sh" >&2; exit 1; }
QUICK=0
[ "${1:-}" = --quick ] && { QUICK=1; shift; }
ONLY=" $* "
if [ $QUICK = 1 ]; then
	ROUNDS=2 SPEEDUPS=0.5,1 SCALE=1 PLAIN=3
else
	ROUNDS=3 SPEEDUPS=0.25,0.5,0.75,1 SCALE=2 PLAIN=5
fi
export LC_ALL=C
command -v coz >/dev/null || {
	[ "$(id -u)" -eq 0 ] && apt-get install -y -qq --no-install-recommends coz-profiler >/dev/null 2>&1
}
command -v coz >/dev/null || { echo "coz is missing (Debian package coz-profiler): nothing to compare"; exit 0; }
tmp=$(mktemp -d /tmp/whatif-vs-coz.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
src=$(pwd)/examples/whatif/coz
cc -O1 -gdwarf-3 -pthread -o "$tmp/toy" "$src/toy.c" -ldl || { echo "cannot build $src/toy.c"; exit 1; }
cc -O2 -gdwarf-3 -o "$tmp/progress" "$src/progress.c" -ldl || { echo "cannot build $src/progress.c"; exit 1; }
python3 - "$tmp" <<'PY'
import random, sys
rng = random.Random(49)
words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 10))) for _ in range(4096)]
with open(sys.argv[1] + "/text", "w") as f:
    size = 0
    while size < 24 << 20:
        line = " ".join(rng.choice(words) for _ in range(rng.randint(4, 14))) + "\n"
        f.write(line)
        size += len(line)
PY

echo "# bench/whatif-vs-coz.sh$([ $QUICK = 1 ] && echo ' --quick') on $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), $(date -u +%Y-%m-%dT%H:%MZ), $(coz --version 2>/dev/null || dpkg-query -W -f='coz-profiler ${Version}' coz-profiler)"
echo "# load average at the start: $(cut -d' ' -f1-3 /proc/loadavg) (a shared machine: other builds and benches ran beside these runs)"
echo "# whatif --sites 3 --speedups $SPEEDUPS --rounds $ROUNDS; Coz: one 'coz run' per program (its experiments are its rounds)"

# one plain run: COMMAND...: its wall time in s
plain_run() {
	python3 -c '
import subprocess, sys, time
out, err = open(sys.argv[1] + "/plain.out", "wb"), open(sys.argv[1] + "/plain.err", "wb")
t = time.perf_counter()
subprocess.run(sys.argv[2:], stdout=out, stderr=err)
print("%.6f" % (time.perf_counter() - t))' "$tmp" "$@"
}

# one program: NAME BY COZ_OPTIONS NW NC -- COMMAND... (BY: whatif's --by; COZ_OPTIONS one word,
# or -; {N} in COMMAND is NW for whatif's and the plain runs, NC for Coz's one run, which must be
# long enough for many of its experiments (about 0.5 s each); the plain run of Coz's length once)
bench_one() {
	local name=$1 by=$2 cozopt=$3 nw=$4 nc=$5
	shift 6
	case "$ONLY" in "  ") ;; *" $name "*) ;; *) return ;; esac
	local load0 i plain=() t0 t1 wt0 wt1 cw=() cc=() a
	for a in "$@"; do cw+=("${a//\{N\}/$nw}") cc+=("${a//\{N\}/$nc}"); done
	load0=$(cut -d' ' -f1 /proc/loadavg)
	for ((i = 0; i < PLAIN; i++)); do plain+=("$(plain_run "${cw[@]}")"); done
	local plainc
	plainc=$(plain_run "${cc[@]}")
	set -- "${cw[@]}"
	# Coz: one run in its own directory (profile.coz), its output to files
	mkdir -p "$tmp/coz-$name"
	t0=$(date +%s.%N)
	(cd "$tmp/coz-$name" && if [ "$cozopt" = - ]; then coz run --- "${cc[@]}"; else coz run $cozopt --- "${cc[@]}"; fi) \
		>"$tmp/coz-$name/out" 2>"$tmp/coz-$name/err"
	local cozrc=$?
	t1=$(date +%s.%N)
	wt0=$(date +%s.%N)
	"$A" whatif -q --json --by "$by" --sites 3 --speedups "$SPEEDUPS" --rounds "$ROUNDS" -- "$@" \
		>"$tmp/$name.json" 2>"$tmp/$name.err"
	local rc=$?
	wt1=$(date +%s.%N)
	python3 - "$name" "$tmp/$name.json" "$rc" "$tmp/coz-$name" "$cozrc" "$(python3 -c "print($t1 - $t0)")" \
		"$(python3 -c "print($wt1 - $wt0)")" "$load0" "$SPEEDUPS" "${plain[*]}" "$plainc" <<'PY'
import collections, json, os, re, statistics, sys
name, jpath, rc, cdir, cozrc, coz_wall, wif_wall, load0, speedups, plain, plainc = sys.argv[1:12]
plainc = float(plainc)
grid = [float(x) for x in speedups.split(",")]
plain = statistics.median(float(x) for x in plain.split())
load1 = open("/proc/loadavg").read().split()[0]
print("\n== %s (plain run %.2f s, load %s/%s)" % (name, plain, load0, load1))

# Coz's profile: experiments and the progress visits after each (throughput, or latency arrivals)
exps, cur, lines_in_scope = [], None, 0
prof = os.path.join(cdir, "profile.coz")
if os.path.exists(prof):
    for line in open(prof):
        f = line.rstrip("\n").split("\t")
        kv = dict(x.split("=", 1) for x in f[1:] if "=" in x)
        if f[0] == "experiment":
            cur = {"line": kv["selected"], "s": float(kv["speedup"]), "dur": float(kv["duration"]), "delta": 0,
                   "samples": int(kv.get("selected-samples", 0))}
            exps.append(cur)
        elif f[0] in ("throughput-point", "progress-point") and cur is not None:
            cur["delta"] += float(kv.get("delta", 0))
        elif f[0] == "latency-point" and cur is not None:
            cur["delta"] += float(kv.get("arrivals", 0))
err = open(os.path.join(cdir, "err"), errors="replace").read()
m = re.search(r"terminate called.*\n.*what\(\):\s*(.*)", err)
with_progress = [e for e in exps if e["delta"] > 0]
coz_lines = collections.Counter(e["line"] for e in exps)
empty = not with_progress
print("  coz: exit %s, %.2f s wall (%.2f x its plain run), %d experiments, %d with progress, %d lines selected%s%s" % (
    cozrc, float(coz_wall), float(coz_wall) / plainc, len(exps), len(with_progress), len(coz_lines),
    "; EMPTY PROFILE (Coz: no data to plot)" if empty else "",
    "; it ended with: " + m.group(1) if m else ""))
if "not in scope" in err and not exps:
    inc = re.findall(r"Including lines from executable (\S+)", err)
    print("    coz's scope: lines from %s" % (", ".join(inc) if inc else "no executable (no debug information)"))

def coz_curve(line):
    by = collections.defaultdict(lambda: [0.0, 0.0, 0])
    for e in exps:
        if e["line"] != line or e["delta"] <= 0:
            continue
        if e["s"] == 0:
            k = 0.0
        else:
            k = min(grid, key=lambda g: abs(g - e["s"]))
            if abs(k - e["s"]) > 0.13:
                continue
        by[k][0] += e["dur"]
        by[k][1] += e["delta"]
        by[k][2] += 1
    if 0.0 not in by:
        return None
    base = by[0.0][0] / by[0.0][1]
    return {k: (1 - (v[0] / v[1]) / base, v[2]) for k, v in by.items() if k > 0}, by[0.0][2]

# whatif's answer
if int(rc) not in (0, 1) or not os.path.exists(jpath) or os.path.getsize(jpath) == 0:
    print("  whatif: exited %s" % rc)
    sites = []
else:
    r = json.load(open(jpath))["results"]
    sites = r["sites"]
    over = r["baseline_period"] / plain - 1 if r["progress_kind"] == "end_to_end" else None
    print("  whatif: exit %s, %.2f s wall (%.1f plain runs' time), %d runs, progress %s (%s), baseline %s, %d sites%s" % (
        rc, float(wif_wall), float(wif_wall) / plain, r["runs"], r["progress"], r["progress_kind"],
        ("%+.1f %% over the plain runs" % (100 * over)) if over is not None else "%.4g s per unit" % r["baseline_period"],
        len(sites), "" if sites else " (" + "; ".join(r.get("notes", [])) + ")"))

def key(site):  # whatif's file:line (function) against Coz's /path/file:line
    m = re.match(r"(\S+):(\d+)", site)
    return (os.path.basename(m.group(1)), int(m.group(2))) if m else None

coz_by_key = {}
for l in coz_lines:
    k = key(l)
    if k:
        coz_by_key[k] = l
print("  sites: whatif %s" % ("; ".join("%s (%d samples, %s)" % (s["site"], s["samples"], s["verdict"]) for s in sites) or "none"))
print("         coz    %s" % ("; ".join("%s (%d experiments)" % (os.path.basename(l), n) for l, n in coz_lines.most_common(6)) or "none"))
shown = set()
for s in sites:
    k = key(s["site"])
    cl = coz_by_key.get(k) if k else None
    shown.add(cl)
    cc = coz_curve(cl) if cl else None
    pts = {p["line_speedup"]: p for p in s["points"]}
    row = []
    for g in grid:
        p = pts.get(g)
        w = "%+6.1f%% ±%5.1f" % (100 * p["program_speedup"], 100 * p["ci"]) if p and p.get("ci") is not None else \
            ("%+6.1f%%       " % (100 * p["program_speedup"]) if p else "   -          ")
        c = "%+6.1f%% (%d)" % (100 * cc[0][g][0], cc[0][g][1]) if cc and g in cc[0] else "   -    "
        row.append("%3.0f%%: %s | coz %s" % (100 * g, w, c))
    print("  %s%s" % (s["site"], "" if cl else "  (coz: no experiment on this line)"))
    print("    whatif ± 95 %% | coz (experiments); coz baseline experiments: %s" % (cc[1] if cc else 0))
    for x in row:
        print("      " + x)
for l, n in coz_lines.most_common(3):
    if l in shown:
        continue
    cc = coz_curve(l)
    print("  %s: coz only (%d experiments): %s" % (os.path.basename(l), n, ", ".join(
        "%.0f%%: %+.1f%% (%d)" % (100 * g, 100 * cc[0][g][0], cc[0][g][1]) for g in grid if cc and g in cc[0]) or "no baseline"))
PY
}

# Coz's toy, a progress point per round; the long loop's line answers min(s, 1/2), the short one 0
bench_one toy line - $((200 * SCALE)) $((3000 * SCALE)) -- "$tmp/toy" "{N}" 2000000
# two processes (fork), one progress point: Coz profiles one process (coz#43); whatif both
bench_one progress line - $((400 * SCALE)) $((4000 * SCALE)) -- "$tmp/progress" "{N}"
# real programs: Debian's binaries are stripped; their debug information is in -dbgsym packages
dbg_note() { # PACKAGE NAME: installs PACKAGE-dbgsym if apt can, else says so (when NAME runs)
	case "$ONLY" in "  ") ;; *" $2 "*) ;; *) return ;; esac
	if dpkg -s "$1-dbgsym" >/dev/null 2>&1 || { [ "$(id -u)" -eq 0 ] &&
		apt-get install -y -qq --no-install-recommends "$1-dbgsym" >/dev/null 2>&1; }; then
		echo "# $1-dbgsym installed: debug information for $1"
	else
		echo "# $1-dbgsym cannot be installed here (no debian-debug archive in apt's sources): $1 has no debug information, Coz has no line to select; whatif --by function names what has a symbol"
	fi
}
if command -v pigz >/dev/null || { [ "$(id -u)" -eq 0 ] && apt-get install -y -qq pigz >/dev/null 2>&1; }; then
	dbg_note pigz pigz
	bench_one pigz function "--binary-scope=%" 1 1 -- pigz -p 2 -6 -c "$tmp/text"
else
	echo "pigz skipped: missing (Debian package pigz)"
fi
dbg_note coreutils sort
bench_one sort function "--binary-scope=%" 1 1 -- sort --parallel=2 -S 256M "$tmp/text" -o "$tmp/sorted"
echo
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
