#!/usr/bin/env bash
# The probe's answers against the published specs of this CPU (tests/specs/cpus.tsv, by vendor,
# family and model) and against the kernel's own time slice (schedstat), in RUNS consecutive full
# runs (default 3): per run one line of verdicts, then "N of M right" per answer. The issue's
# acceptance check: line, L1 size and ways, L2 size and ways, page size, int add 1 cy, registers
# within the ISA's count, time slice within 25 % of the kernel's, contexts = CPUs.
#   bench/probe-vs-specs.sh [RUNS] [extra probe options]
set -uo pipefail
cd "$(dirname "$0")/.."
[ -x build/archscope ] || bash scripts/setup.sh >/dev/null
runs=${1:-3}; shift || true
bin=$(pwd)/build/archscope
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
vendor=$(grep -m1 '^vendor_id' /proc/cpuinfo | awk '{print $3}')
family=$(grep -m1 '^cpu family' /proc/cpuinfo | awk '{print $4}')
model=$(grep -m1 '^model[[:space:]]*:' /proc/cpuinfo | awk '{print $3}')
row=$(awk -F'\t' -v v="$vendor" -v f="$family" -v m="$model" '$1==v && $2==f && $3==m' tests/specs/cpus.tsv)
if [ -z "$row" ]; then
	echo "skip: no published specs for $vendor family $family model $model in tests/specs/cpus.tsv"
	exit 0
fi
echo "$vendor family $family model $model: $(cut -f4 <<<"$row") ($(nproc) CPUs); $runs runs of archscope probe $*"
for i in $(seq 1 "$runs"); do
	t0=$(date +%s.%N)
	"$bin" probe --json "$@" >"$tmp/run$i.json" 2>"$tmp/err$i" || echo "run $i: exit $? ($(tail -1 "$tmp/err$i"))"
	echo "$(date +%s.%N) - $t0" | bc >"$tmp/sec$i"
done
python3 - "$tmp" "$runs" "$row" "$(nproc)" <<'PY'
import json, os, sys
tmp, runs, row, ncpu = sys.argv[1], int(sys.argv[2]), sys.argv[3].split("\t"), int(sys.argv[4])
cols = "vendor family model name line_bytes l1d_bytes l1d_ways l2_bytes l2_ways page_bytes int_add_cy int_regs vec_regs source".split()
spec = dict(zip(cols, row))
num = lambda k: float(spec[k]) if spec.get(k) else None
def val(a):
    return a.get("value") if isinstance(a, dict) else a
checks = {}
def check(name, got, ok, want):
    checks.setdefault(name, []).append((got, ok, want))
for i in range(1, runs + 1):
    try:
        d = json.load(open(f"{tmp}/run{i}.json"))["results"]
    except Exception as e:
        print(f"run {i}: no JSON ({e})")
        continue
    sec = float(open(f"{tmp}/sec{i}").read())
    g = lambda *ks: _get(d, ks)
    def lev(kind, n, key):
        for l in d.get(kind, {}).get("levels", []):
            if l.get("level") == n:
                return val(l.get(key))
        return None
    line = val(d.get("line"))
    check("line", line, line == num("line_bytes"), num("line_bytes"))
    for n, b, w in ((1, "l1d_bytes", "l1d_ways"), (2, "l2_bytes", "l2_ways")):
        s = lev("caches", n, "size")
        check(f"L{n} size", s, s == num(b), num(b))
        ways = lev("assoc", n, "ways")
        check(f"L{n} ways", ways, ways == num(w), num(w))
    page = val(d.get("tlb", {}).get("page_size"))
    check("page size", page, page == num("page_bytes"), num("page_bytes"))
    add = [o for o in d.get("instr", {}).get("ops", []) if o["op"] == "add" and o["type"] in ("int32", "int64") and o["width_bits"] <= 64]
    for o in add:
        lat = o.get("latency_cy")
        check(f"add {o['type']} cy", lat, lat is not None and abs(lat - 1) <= 0.1, "1 +- 0.1")
    ri, rf = val(d.get("registers", {}).get("int")), val(d.get("registers", {}).get("fp"))
    check("registers int", ri, ri is not None and ri <= num("int_regs"), f"<= {num('int_regs'):g}")
    check("registers fp", rf, rf is not None and rf <= num("vec_regs"), f"<= {num('vec_regs'):g}")
    ts = d.get("timeslice", {})
    sl = val(ts.get("slice"))
    kern = val(ts.get("schedstat")) if isinstance(ts.get("schedstat"), dict) else None
    check("time slice ms", sl, sl is not None and kern is not None and abs(sl / kern - 1) <= 0.25, f"schedstat {kern:.3f}" if kern is not None else "schedstat -")
    for k in ("fp", "int", "mem"):
        c = val(d.get("contexts", {}).get(k))
        check(f"contexts {k}", c, c == ncpu, ncpu)
    check("seconds", round(sec, 1), sec <= 60, "<= 60")
def _get(d, ks):
    for k in ks:
        d = d.get(k, {}) if isinstance(d, dict) else {}
    return d
def fmt(v):
    """Numbers for people: sizes of 1 KiB and more in binary units, others with up to 4 decimals."""
    if v is None:
        return "-"
    if not isinstance(v, (int, float)):
        return str(v)
    for unit, b in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if v >= b and v == int(v):
            return f"{v / b:g} {unit}"
    return f"{v:#.4g}" if v != int(v) else f"{int(v)}"
print(f"{'answer':<16} {'published':<14} " + " ".join(f"{'run ' + str(i):<10}" for i in range(1, runs + 1)) + " right")
total = right = 0
for name, rows in checks.items():
    n_ok = sum(1 for r in rows if r[1])
    total += len(rows); right += n_ok
    cells = " ".join(f"{fmt(r[0]) + ('' if r[1] else ' X'):<10}" for r in rows)
    print(f"{name:<16} {fmt(rows[0][2]):<14} {cells} {n_ok}/{len(rows)}")
print(f"{right} of {total} checks right")
PY
