#!/bin/bash
# Blocking advice checked by hand (issue: model II): the long-range 3D stencil at N=1015, M=130
# with this machine's probed file. Prints archscope's blocking advice, then benchmark mode (the
# kernel compiled and run pinned, cy/CL in core cycles of the measured clock) of the kernel as it
# is and of kernels/3d-long-range-blocked.c (the loop 'j' blocked in B rows), interleaved over
# ROUNDS rounds, and the measured and predicted speed-ups.
#   L2 advice "N <= 156 (block 'j', 'i')": 88*N^2 B must fit; blocking only j keeps i long and needs
#   88*B*1015 <= 88*156^2, B <= 23: B = 19 (1007 = 53 x 19 rows).
#   L3 advice "N <= 489": B <= 235: B = 53.
# Usage: bench/blocking-3d-long-range.sh [MACHINE.yaml]   (ROUNDS=2; each run ~20 s, 3.2 GB)
set -u
cd "$(dirname "$0")/.."
A=${ARCHSCOPE:-build/archscope}
[ -x "$A" ] || { echo "build first: bash scripts/setup.sh" >&2; exit 1; }
MACHINE=${1:-machines/kvm-xeon-6-207.yaml}
ROUNDS=${ROUNDS:-2}
echo "== advice: $A model kernels/3d-long-range.c -m $MACHINE -D N 1015 -D M 130 -p Blocking"
"$A" model kernels/3d-long-range.c -m "$MACHINE" -D N 1015 -D M 130 -p Blocking 2>/dev/null | sed -n '/^Blocking/,$p'
export A MACHINE ROUNDS
python3 - <<'PY'
import json, os, statistics, subprocess
A, M, R = os.environ["A"], os.environ["MACHINE"], int(os.environ["ROUNDS"])
variants = [("as is", "kernels/3d-long-range.c", []),
            ("j blocked, B=19 (L2 advice)", "kernels/3d-long-range-blocked.c", ["-D", "B", "19", "-D", "NB", "53"]),
            ("j blocked, B=53 (L3 advice)", "kernels/3d-long-range-blocked.c", ["-D", "B", "53", "-D", "NB", "19"])]
meas = {v[0]: [] for v in variants}
for r in range(R):
    for name, f, d in variants:
        p = subprocess.run([A, "model", f, "-m", M, "-D", "N", "1015", "-D", "M", "130", *d, "-p", "Benchmark",
                            "--bench-seconds", "0.01", "--bench-reps", "3", "--json"], capture_output=True, text=True)
        if p.returncode != 0:
            print(f"{name}: failed: {p.stderr.strip()[-300:]}")
            continue
        b = json.loads(p.stdout)["results"]["benchmark"]
        meas[name].append(b["cy_per_cl"])
        print(f"round {r + 1}  {name:28} {b['cy_per_cl']:8.2f} cy/CL  {b['mlups']:7.1f} MLUP/s", flush=True)
adv = json.loads(subprocess.run([A, "model", "kernels/3d-long-range.c", "-m", M, "-D", "N", "1015", "-D", "M", "130",
                                 "-p", "Blocking", "--json"], capture_output=True, text=True).stdout)["results"]
print()
base = statistics.median(meas["as is"]) if meas["as is"] else float("nan")
print(f"as is: median {base:.2f} cy/CL (core cycles of the measured clock)")
for name, lvl in (("j blocked, B=19 (L2 advice)", "L2"), ("j blocked, B=53 (L3 advice)", "L3")):
    if not meas[name]:
        continue
    m = statistics.median(meas[name])
    pred = next((x for x in adv.get("blocking", []) if x.get("level") == lvl), {})
    ps = pred["cy_per_cl_now"] / pred["cy_per_cl_blocked"] if pred.get("cy_per_cl_blocked") else None
    print(f"{name}: median {m:.2f} cy/CL, measured speed-up {base / m:.2f}x"
          + (f", predicted {ps:.2f}x (ECM {pred['cy_per_cl_now']:.2f} -> {pred['cy_per_cl_blocked']:.2f} cy/CL)" if ps else ""))
PY
