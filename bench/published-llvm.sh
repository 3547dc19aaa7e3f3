#!/usr/bin/env bash
# The LLVM column of archscope's published instruction table (src/probe/published.c, last source)
# recomputed: every row's instruction, as the probe's kernels compile it, through llvm-mca-19's
# scheduling model of the CPU (Emerald Rapids: -mcpu=emeraldrapids); prints LLVM's latency and
# reciprocal throughput beside the table's and whether they match.
# Last line: "llvm column: N of M rows match llvm-mca-19 -mcpu=CPU".
#   MCPU=emeraldrapids (default)
set -uo pipefail
cd "$(dirname "$0")/.."
MCPU=${MCPU:-emeraldrapids}
mca=$(command -v llvm-mca-19 || true)
if [ -z "$mca" ]; then
	echo "installing llvm-19 (Debian package, for llvm-mca-19) ..."
	{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq llvm-19; } >/dev/null 2>&1 ||
		{ echo "published-llvm: cannot install llvm-19 (apt-get install llvm-19 failed)"; exit 1; }
	mca=$(command -v llvm-mca-19)
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# op type width (0 = scalar) and the instruction the generated kernel's chain compiles to (AT&T).
cat > "$tmp/rows" <<'ROWS'
add int32 0 addl %ecx, %eax
sub int32 0 subl %ecx, %eax
mul int32 0 imull %ecx, %eax
div int32 0 divl %ecx
add int64 0 addq %rcx, %rax
sub int64 0 subq %rcx, %rax
mul int64 0 imulq %rcx, %rax
div int64 0 divq %rcx
add float 0 vaddss %xmm1, %xmm0, %xmm0
sub float 0 vsubss %xmm1, %xmm0, %xmm0
mul float 0 vmulss %xmm1, %xmm0, %xmm0
div float 0 vdivss %xmm1, %xmm0, %xmm0
fma float 0 vfmadd231ss %xmm1, %xmm2, %xmm0
add double 0 vaddsd %xmm1, %xmm0, %xmm0
sub double 0 vsubsd %xmm1, %xmm0, %xmm0
mul double 0 vmulsd %xmm1, %xmm0, %xmm0
div double 0 vdivsd %xmm1, %xmm0, %xmm0
fma double 0 vfmadd231sd %xmm1, %xmm2, %xmm0
add int32 512 vpaddd %zmm1, %zmm0, %zmm0
sub int32 512 vpsubd %zmm1, %zmm0, %zmm0
mul int32 512 vpmulld %zmm1, %zmm0, %zmm0
add int64 512 vpaddq %zmm1, %zmm0, %zmm0
sub int64 512 vpsubq %zmm1, %zmm0, %zmm0
mul int64 512 vpmullq %zmm1, %zmm0, %zmm0
add float 512 vaddps %zmm1, %zmm0, %zmm0
sub float 512 vsubps %zmm1, %zmm0, %zmm0
mul float 512 vmulps %zmm1, %zmm0, %zmm0
div float 512 vdivps %zmm1, %zmm0, %zmm0
fma float 512 vfmadd231ps %zmm1, %zmm2, %zmm0
add double 512 vaddpd %zmm1, %zmm0, %zmm0
sub double 512 vsubpd %zmm1, %zmm0, %zmm0
mul double 512 vmulpd %zmm1, %zmm0, %zmm0
div double 512 vdivpd %zmm1, %zmm0, %zmm0
fma double 512 vfmadd231pd %zmm1, %zmm2, %zmm0
ROWS
: > "$tmp/llvm"
while read -r op ty w ins; do
	r=$(printf '%s\n' "$ins" | "$mca" -mtriple=x86_64 -mcpu="$MCPU" -instruction-info -iterations=10 2>/dev/null |
		awk '/^\[1\] +\[2\] +\[3\]/ {f = 1; next} f && NF {print $2, $3; exit}')
	[ -n "$r" ] || { echo "published-llvm: llvm-mca-19 gave no figure for '$ins'"; continue; }
	echo "$op $ty $w $r" >> "$tmp/llvm"
done < "$tmp/rows"
python3 - "$tmp/llvm" src/probe/published.c "$MCPU" <<'PY'
import re, sys
llvm = {tuple(l.split()[:3]): tuple(map(float, l.split()[3:5])) for l in open(sys.argv[1])}
src = open(sys.argv[2]).read()
# Rows are { op, type, bits, instruction, { latency per source }, { cy/op per source } }; LLVM is
# the last source.
row = re.compile(r'\{ "(\w+)", "(\w+)", (\d+), "([^"]+)", \{ ([\d., ]+) \}, \{ ([\d., ]+) \} \}')
print(f"{'op':<4} {'type':<7} {'width':>5} {'instruction':<18} {'table lat':>9} {'llvm lat':>8} {'table cy/op':>11} {'llvm cy/op':>10}  match")
n = ok = 0
for m in row.finditer(src):
    op, ty, w, ins = m.group(1, 2, 3, 4)
    tl, tc = float(m.group(5).split(",")[-1]), float(m.group(6).split(",")[-1])
    if (op, ty, w) not in llvm:
        continue
    ll, lc = llvm[(op, ty, w)]
    good = abs(tl - ll) < 1e-9 and abs(tc - lc) < 1e-9
    n += 1; ok += good
    print(f"{op:<4} {ty:<7} {w:>5} {ins:<18} {tl:9g} {ll:8g} {tc:11g} {lc:10g}  {'yes' if good else 'NO'}")
print(f"llvm column: {ok} of {n} rows match llvm-mca-19 -mcpu={sys.argv[3]}")
PY
