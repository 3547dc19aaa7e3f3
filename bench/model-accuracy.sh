#!/bin/bash
# Accuracy of archscope model (issue: model II): for every kernel in kernels/, at sizes whose data
# lands in L1, L2, L3 and memory of this machine, the ECM prediction (layer conditions + llvm-mca)
# against benchmark mode (the kernel compiled and run pinned, cy/CL in core cycles of the measured
# clock), with this machine's probed file. Prints every row (with `L3 +-`: how far the prediction
# moves with the file's L3 halved or doubled, the model's llc_sensitivity), the median |error| per
# kernel and per family, and last `median |error|: streams X %, stencils Y %`.
# Usage: bench/model-accuracy.sh [MACHINE.yaml]   (default machines/kvm-xeon-6-207.yaml)
#        BENCH_SECONDS=0.01 BENCH_REPS=50 KERNELS="copy jacobi-2d-5pt" LEVELS="L1 MEM" to narrow it down.
set -u
cd "$(dirname "$0")/.."
A=${ARCHSCOPE:-build/archscope}
[ -x "$A" ] || { echo "build first: bash scripts/setup.sh" >&2; exit 1; }
MACHINE=${1:-machines/kvm-xeon-6-207.yaml}
export A MACHINE BENCH_SECONDS=${BENCH_SECONDS:-0.01} BENCH_REPS=${BENCH_REPS:-50} KERNELS=${KERNELS:-} LEVELS=${LEVELS:-L1 L2 L3 MEM}
python3 - <<'PY'
import json, os, statistics, subprocess, sys

A, MACHINE = os.environ["A"], os.environ["MACHINE"]
# kernel: family, dimensions, arrays of the full size, element size
KERNELS = {
    "copy": ("streams", 1, 2, 8), "update": ("streams", 1, 1, 8), "daxpy": ("streams", 1, 2, 8),
    "stream-triad": ("streams", 1, 3, 8), "vector-triad": ("streams", 1, 4, 8), "sum": ("streams", 1, 1, 8),
    "jacobi-2d-5pt": ("stencils", 2, 2, 8), "2d-9pt-flat": ("stencils", 2, 2, 4), "3d-7pt": ("stencils", 3, 2, 8),
    "3d-long-range": ("stencils", 3, 3, 8), "matvec": ("matvec", 2, 1, 8),
}
want = os.environ["KERNELS"].split()
# total bytes per level, from the machine file's cache sizes (half of L1/L2, 40 % of L3, 10x L3)
show = json.loads(subprocess.run([A, "machine", "show", "--json", MACHINE], capture_output=True, text=True).stdout)
def level_bytes():
    out = {}
    for L in show.get("results", {}).get("machine", {}).get("memory hierarchy", []):
        c = L.get("cache per group") or {}
        try:
            out[L["level"]] = int(c["sets"]) * int(c["ways"]) * int(c["cl_size"])
        except (KeyError, TypeError, ValueError):
            pass
    return out
sizes = level_bytes()
if not {"L1", "L2", "L3"} <= set(sizes):
    sizes = {"L1": 48 << 10, "L2": 2 << 20, "L3": 40 << 20}
    print("(the machine file has no L1/L2/L3 sizes: using L1 48 KiB, L2 2 MiB, L3 40 MiB)")
target = {"L1": sizes["L1"] * 0.5, "L2": sizes["L2"] * 0.5, "L3": sizes["L3"] * 0.4, "MEM": sizes["L3"] * 10}
levels = os.environ["LEVELS"].split()
rows = []
print(f"machine: {MACHINE}; benchmark: fastest of {os.environ['BENCH_REPS']} repetitions of >= {os.environ['BENCH_SECONDS']} s, cy/CL in core cycles of the measured clock")
print(f"{'kernel':15} {'level':5} {'defines':22} {'T_OL':>6} {'T_nOL':>6} {'mca':>6} {'ECM':>8} {'measured':>9} {'error':>8} {'L3 +-':>6}")
for name, (fam, dims, arrays, es) in KERNELS.items():
    if want and name not in want:
        continue
    for lv in levels:
        elems = target[lv] / (arrays * es)
        if dims == 1:
            d = {"N": int(elems)}
        elif dims == 2:
            n = int(elems ** 0.5)
            d = {"N": max(n, 16), "M": max(n, 16)}
        else:
            n = int(elems ** (1 / 3))
            d = {"N": max(n, 12), "M": max(n, 12)}
        args = [A, "model", f"kernels/{name}.c", "-m", MACHINE, "-p", "ECM", "-p", "Benchmark",
                "--bench-seconds", os.environ["BENCH_SECONDS"], "--bench-reps", os.environ["BENCH_REPS"], "--json"]
        for k, v in d.items():
            args += ["-D", k, str(v)]
        p = subprocess.run(args, capture_output=True, text=True)
        dstr = " ".join(f"{k}={v}" for k, v in d.items())
        if p.returncode != 0:
            # constants the kernel does not have (1D kernels have no M) are dropped and retried
            print(f"{name:15} {lv:5} {dstr:22} failed: {p.stderr.strip().splitlines()[-1] if p.stderr.strip() else p.returncode}")
            continue
        r = json.loads(p.stdout)["results"]
        ecm, b, ic = r.get("ecm", {}), r.get("benchmark", {}), r.get("incore", {})
        if "error" in ecm or "error" in b:
            print(f"{name:15} {lv:5} {dstr:22} {ecm.get('error') or b.get('error')}")
            continue
        pred, meas = ecm["prediction_cy_per_cl"], b["cy_per_cl"]
        err = (pred - meas) / meas
        mca = ic["mca_cycles_per_pass"] * r["iterations_per_cl"] / ic["iterations_per_pass"]
        sens = ecm.get("llc_sensitivity") or {}
        moves = max(abs(sens.get("half_cy_per_cl", pred) - pred), abs(sens.get("double_cy_per_cl", pred) - pred)) / pred
        rows.append((name, fam, lv, err, moves))
        print(f"{name:15} {lv:5} {dstr:22} {ecm['T_OL']:6.2f} {ecm['T_nOL']:6.2f} {mca:6.2f} {pred:8.2f} {meas:9.2f} {100 * err:+7.1f}% {100 * moves:5.1f}%")
        sys.stdout.flush()
print()
def med(xs):
    return statistics.median(xs) if xs else float("nan")
for name in KERNELS:
    e = [abs(x[3]) for x in rows if x[0] == name]
    if e:
        print(f"median |error| {name}: {100 * med(e):.1f} % ({len(e)} sizes)")
fams = {f: [abs(x[3]) for x in rows if x[1] == f] for f in ("streams", "stencils", "matvec")}
if fams["matvec"]:
    print(f"matvec (neither family): median |error| {100 * med(fams['matvec']):.1f} %")
print("(T_OL, T_nOL, mca: llvm-mca's port pressure and simulated cycles per CL; ECM: the prediction; error = (ECM - measured) / measured;")
print(" L3 +-: the largest change of the prediction with the file's L3 halved or doubled)")
for f in ("streams", "stencils"):
    mv = [x[4] for x in rows if x[1] == f]
    if mv:
        print(f"L3 sensitivity {f}: median {100 * med(mv):.1f} %, largest {100 * max(mv):.1f} %")
print(f"median |error|: streams {100 * med(fams['streams']):.1f} %, stencils {100 * med(fams['stencils']):.1f} %")
PY
