#!/usr/bin/env bash
# Golden outputs: `model` on every kernel in kernels/ with fixed machine files, and `analyze` with
# every method on every recorded curve in tests/fixtures/*/, compared with the JSON recorded in
# tests/golden/expected/ (the "machine" block of the envelope left out). Keeps refactoring honest:
# the same input gives the same results.
#   tests/golden/run.sh ARCHSCOPE            compare; exit 1 and a diff on the first difference
#   tests/golden/run.sh ARCHSCOPE --record   (re)write the expected files
#   tests/golden/run.sh ARCHSCOPE --record-new   write only the cases that have none (a new fixture)
set -uo pipefail
bin=${1:?usage: run.sh ARCHSCOPE [--record]}
mode=${2:-compare}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
exp=$here/expected
mkdir -p "$exp"
tmp=$(mktemp -d /tmp/archscope-golden.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export ARCHSCOPE_CACHE_DIR=off
cd "$root" || exit 1
mca_version=$( (llvm-mca-19 --version || llvm-mca --version) 2>/dev/null | grep -m1 -o 'version [0-9.]*' | tr -d ' ')

n=0
check() { # NAME TAG ARGS...: runs one case into $tmp/NAME.out, .rc, .tag
	local name=$1 tag=$2; shift 2
	"$bin" "$@" >"$tmp/$name.out" 2>/dev/null
	echo $? >"$tmp/$name.rc"
	echo "$tag $*" >"$tmp/$name.tag"
	n=$((n + 1))
}

while read -r first rest; do
	case $first in '#'*|'') continue ;; esac
	tag=plain
	if [ "$first" = "[mca]" ]; then tag=mca; read -r first rest <<<"$rest"; fi
	args=${rest//MACHINES_REPO/machines}
	args=${args//MACHINES/tests/fixtures/machines}
	args=${args//KERNELS/kernels}
	# shellcheck disable=SC2086
	check "$first" "$tag" $args
done <"$here/cases.txt"

for csv in tests/fixtures/*/*.csv tests/fixtures/*/run1/*.csv; do
	[ -f "$csv" ] || continue
	base=$(echo "${csv#tests/fixtures/}" | tr '/' '_'); base=${base%.csv}
	for m in monotone first-step biggest-step scaled-step qt levels; do
		check "analyze-$base-$m" plain analyze --method "$m" --json "$csv"
	done
done

# One python pass normalizes every output (the results and the exit code as canonical JSON: sorted
# keys, floats to 10 significant digits, timings named *seconds* left out) and records or compares.
python3 - "$tmp" "$exp" "$mode" "$mca_version" <<'PY'
import difflib, json, os, sys
tmp, exp, mode, mca = sys.argv[1:5]
def canon(o):
    if isinstance(o, float):
        return float("%.10g" % o)
    if isinstance(o, dict):
        return {k: canon(v) for k, v in o.items() if "seconds" not in k}
    if isinstance(o, list):
        return [canon(v) for v in o]
    return o
names = sorted(f[:-3] for f in os.listdir(tmp) if f.endswith(".rc"))
bad = skipped = compared = written = 0
for name in names:
    text = open(os.path.join(tmp, name + ".out")).read()
    try:
        d = {"results": canon(json.loads(text).get("results"))}
    except ValueError:
        d = {"stdout": text}
    d["exit"] = int(open(os.path.join(tmp, name + ".rc")).read())
    norm = json.dumps(d, indent=1, sort_keys=True) + "\n"
    tag, _, args = open(os.path.join(tmp, name + ".tag")).read().strip().partition(" ")
    want_path = os.path.join(exp, name + ".json")
    mca_path = os.path.join(exp, name + ".mca")
    if mode == "--record" or (mode == "--record-new" and not os.path.exists(want_path)):
        open(want_path, "w").write(norm)
        written += 1
        if tag == "mca":
            open(mca_path, "w").write(mca + "\n")
        continue
    if mode == "--record-new":
        continue
    if tag == "mca":
        rec = open(mca_path).read().strip() if os.path.exists(mca_path) else "?"
        if rec != mca:
            skipped += 1
            print("skip %s: recorded with llvm-mca %s, this is %s" % (name, rec, mca))
            continue
    compared += 1
    if not os.path.exists(want_path):
        bad += 1
        print("FAIL %s: no expected file" % name)
        continue
    want = open(want_path).read()
    if want != norm:
        bad += 1
        print("FAIL %s: archscope %s" % (name, args))
        diff = difflib.unified_diff(want.splitlines(), norm.splitlines(), "expected", "now", lineterm="")
        print("\n".join(list(diff)[:40]))
if mode.startswith("--record"):
    print("recorded %d golden outputs in %s" % (written, exp))
    sys.exit(0)
print("golden: %d compared, %d differ, %d skipped" % (compared, bad, skipped))
sys.exit(1 if bad else 0)
PY
