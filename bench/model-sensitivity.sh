#!/bin/bash
# How much the model's predictions move with the machine file (issue 35 item 13): for the kernels and
# sizes of bench/model-accuracy.sh (sizes from the first file's cache sizes, the same for every file),
# the ECM prediction (cy/CL; no benchmark run) with each MACHINE file given, and the largest
# relative difference per row. With one file, its copies with the L3 halved and doubled (sets x
# 1/2, x 2; nothing else changed) are the others: the sensitivity to the effective L3 alone.
# Prints every row, then per family the median and largest |difference|.
# Usage: bench/model-sensitivity.sh MACHINE.yaml [MACHINE2.yaml ...]   (KERNELS, LEVELS as model-accuracy.sh)
set -u
cd "$(dirname "$0")/.."
A=${ARCHSCOPE:-build/archscope}
[ -x "$A" ] || { echo "build first: bash scripts/setup.sh" >&2; exit 1; }
[ $# -ge 1 ] || { echo "usage: $0 MACHINE.yaml [MACHINE2.yaml ...]" >&2; exit 2; }
tmp=$(mktemp -d /tmp/model-sensitivity.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export A TMPD=$tmp KERNELS=${KERNELS:-} LEVELS=${LEVELS:-L1 L2 L3 MEM}
python3 - "$@" <<'PY'
import json, os, re, statistics, subprocess, sys

A, TMP = os.environ["A"], os.environ["TMPD"]
files = sys.argv[1:]
KERNELS = {
    "copy": ("streams", 1, 2, 8), "update": ("streams", 1, 1, 8), "daxpy": ("streams", 1, 2, 8),
    "stream-triad": ("streams", 1, 3, 8), "vector-triad": ("streams", 1, 4, 8), "sum": ("streams", 1, 1, 8),
    "jacobi-2d-5pt": ("stencils", 2, 2, 8), "2d-9pt-flat": ("stencils", 2, 2, 4), "3d-7pt": ("stencils", 3, 2, 8),
    "3d-long-range": ("stencils", 3, 3, 8), "matvec": ("matvec", 2, 1, 8),
}
def sizes_of(path):
    show = json.loads(subprocess.run([A, "machine", "show", "--json", path], capture_output=True, text=True).stdout)
    out = {}
    for L in show["results"]["machine"]["memory hierarchy"]:
        c = L.get("cache per group") or {}
        if c:
            out[L["level"]] = int(c["sets"]) * int(c["ways"]) * int(c["cl_size"])
    return out
if len(files) == 1:
    # the L3 halved and doubled: only its sets (and the size line) change
    text = open(files[0]).read()
    m = re.search(r"- level: L3\n(?:.*\n)*?    sets: (\d+)\n(?:.*\n)*?    ways: (\d+)\n(?:.*\n)*?  size per group: ([0-9.]+) kB", text)
    if not m:
        sys.exit(f"{files[0]}: no L3 with sets, ways and size per group")
    for f, name in ((0.5, "half"), (2, "double")):
        sets, ways = int(m.group(1)), int(m.group(2))
        if sets > 1 or f > 1:
            new_sets, new_ways = max(1, int(sets * f)), ways
        else:
            new_sets, new_ways = 1, int(ways * f)
        t = text[:m.start()] + m.group(0).replace(f"sets: {sets}\n", f"sets: {new_sets}\n").replace(
            f"ways: {ways}\n", f"ways: {new_ways}\n").replace(
            f"size per group: {m.group(3)} kB", f"size per group: {float(m.group(3)) * f:.2f} kB") + text[m.end():]
        p = f"{TMP}/l3-{name}.yaml"
        open(p, "w").write(t)
        files.append(p)
S = sizes_of(files[0])
target = {"L1": S["L1"] * 0.5, "L2": S["L2"] * 0.5, "L3": S["L3"] * 0.4, "MEM": S["L3"] * 10}
for f in files:
    print(f"file {f}: L3 {sizes_of(f)['L3'] / 2**20:.1f} MiB")
print(f"sizes from {files[0]} (as model-accuracy.sh): L1 {target['L1'] / 1024:.0f} KiB, L2 {target['L2'] / 1024:.0f} KiB, "
      f"L3 {target['L3'] / 2**20:.1f} MiB, MEM {target['MEM'] / 2**20:.0f} MiB")
want = os.environ["KERNELS"].split()
rows = []
print(f"{'kernel':15} {'level':5} {'defines':22} " + " ".join(f"{'file ' + str(i + 1):>8}" for i in range(len(files))) + f" {'max diff':>9}")
for name, (fam, dims, arrays, es) in KERNELS.items():
    if want and name not in want:
        continue
    for lv in os.environ["LEVELS"].split():
        elems = target[lv] / (arrays * es)
        d = {"N": int(elems)} if dims == 1 else {"N": max(int(elems ** 0.5), 16), "M": max(int(elems ** 0.5), 16)} \
            if dims == 2 else {"N": max(int(elems ** (1 / 3)), 12), "M": max(int(elems ** (1 / 3)), 12)}
        preds = []
        for f in files:
            args = [A, "model", f"kernels/{name}.c", "-m", f, "-p", "ECM", "--json"]
            for k, v in d.items():
                args += ["-D", k, str(v)]
            p = subprocess.run(args, capture_output=True, text=True)
            try:
                preds.append(json.loads(p.stdout)["results"]["ecm"]["prediction_cy_per_cl"])
            except (ValueError, KeyError):
                preds.append(float("nan"))
        base = preds[0]
        diff = max(abs(x - base) / base for x in preds)
        rows.append((name, fam, lv, diff))
        dstr = " ".join(f"{k}={v}" for k, v in d.items())
        print(f"{name:15} {lv:5} {dstr:22} " + " ".join(f"{x:8.2f}" for x in preds) + f" {100 * diff:8.1f}%", flush=True)
print()
for fam in ("streams", "stencils", "matvec"):
    e = [r[3] for r in rows if r[1] == fam]
    if e:
        print(f"{fam:9}: median |difference| {100 * statistics.median(e):.1f} %, largest {100 * max(e):.1f} % "
              f"({max(rows, key=lambda r: r[3] if r[1] == fam else -1)[0]} {max(rows, key=lambda r: r[3] if r[1] == fam else -1)[2]})")
PY
