# cmake --install into a temporary prefix, the installed tree moved elsewhere, and the source and
# build trees hidden (tmpfs mounted over them in a private mount namespace): stack, probe --quick
# and model run from the moved tree, finding the preload library, the data files, the man pages
# and the completion relative to the binary and nothing of the build tree.
. "$(dirname "$0")/lib.sh"
require MOUNT_NS
command -v cmake >/dev/null || skip "needs cmake in PATH"
build=$(cd "$(dirname "$ARCHSCOPE")" && pwd)
[ -f "$build/cmake_install.cmake" ] || fail "$build has no cmake_install.cmake"
[ -x "$build/stack-barrier" ] || skip "needs the stack examples beside $ARCHSCOPE"

run 0 cmake --install "$build" --prefix "$TMP/prefix"
test_expect_success 'installed: the binary, the data, the completion; the preload library in lib/archscope' '
	for f in bin/archscope share/archscope/groups/FLOPS.txt share/archscope/kernels/stream-triad.c \
		share/archscope/machines/kvm-xeon-6-207.yaml share/bash-completion/completions/archscope; do
		[ -f "$TMP/prefix/$f" ] || fail "not installed: $f"
	done
	lib=$(cd "$TMP/prefix" && find . -name libarchscope-preload.so)
	case $lib in ./lib/archscope/libarchscope-preload.so|./lib/*-linux-gnu*/archscope/libarchscope-preload.so) ;;
	*) fail "preload library installed at '\''$lib'\'', not in lib/archscope" ;;
	esac
	[ -f "$TMP/prefix/$(dirname "$lib")/libarchscope-marker.so" ] || fail "marker library not beside the preload library"
	[ -f "$TMP/prefix/include/archscope-marker.h" ] || fail "not installed: include/archscope-marker.h"
'
test_expect_success PANDOC 'installed: the manual pages' '
	[ -f "$TMP/prefix/share/man/man1/archscope.1" ] && [ -f "$TMP/prefix/share/man/man1/archscope-probe.1" ] ||
		fail "manual pages not installed"
'

# moved_run: the prefix moved elsewhere and the trees it came from hidden, the installed binary runs
moved_run() {
	local P hide with_model ns rc f
	# a prefix works wherever it is: move it, and hide the trees it came from
	mv "$TMP/prefix" "$TMP/moved"
	cp "$build/stack-barrier" "$TMP/barrier"
	cp "$build/examples/regions-known" "$TMP/known"
	P=$TMP/moved
	hide=("$ROOT")
	case $build/ in "$ROOT"/*) ;; *) hide+=("$build") ;; esac
	cat >"$TMP/inside.sh" <<INSIDE
set -u
for d in ${hide[*]}; do mount -t tmpfs tmpfs "\$d" || exit 3; done
[ -z "\$(ls -A "$ROOT")" ] || exit 4
cd /
ARCHSCOPE_CACHE_DIR=$TMP/cache; export ARCHSCOPE_CACHE_DIR
unset ARCHSCOPE_PRELOAD ARCHSCOPE_SHARE_DIR
"$P/bin/archscope" --version >$TMP/version.out 2>&1 || exit 10
"$P/bin/archscope" stack -q -t 1,2 -r 1 --json -- "$TMP/barrier" "{T}" 200 >$TMP/stack.json 2>$TMP/stack.err || exit 11
"$P/bin/archscope" probe --quick -q --json >$TMP/probe.json 2>$TMP/probe.err || exit 12
"$P/bin/archscope" stat -M NOSUCH -- true >/dev/null 2>$TMP/stat.err; [ \$? -eq 2 ] || exit 13
"$P/bin/archscope" stat -q -r 1 --regions --json -o $TMP/regions.json -- "$TMP/known" 1 2>$TMP/regions.err || exit 15
grep -q '"name": "long"' $TMP/regions.json || exit 15
if [ "\${WITH_MODEL:-0}" = 1 ]; then
	"$P/bin/archscope" model "$P/share/archscope/kernels/stream-triad.c" -m "$P/share/archscope/machines/kvm-xeon-6-207.yaml" \
		-D N 4000000 --json >$TMP/model.json 2>$TMP/model.err || exit 14
fi
exit 0
INSIDE
	with_model=0
	prereq LIBCLANG && with_model=1
	if [ "$(id -u)" -eq 0 ]; then ns=(unshare -m); else ns=(unshare -rm); fi
	WITH_MODEL=$with_model "${ns[@]}" bash "$TMP/inside.sh"
	rc=$?
	[ "$rc" -eq 0 ] || for f in stack probe stat regions model; do
		[ -s "$TMP/$f.err" ] && { echo "--- $f stderr:" >&2; head -n 20 "$TMP/$f.err" >&2; }
	done
	case $rc in
	0) ;;
	3) fail "cannot mount a tmpfs over ${hide[*]}" ;;
	4) fail "$ROOT still visible inside the namespace" ;;
	10) fail "the installed archscope does not start" ;;
	11) fail "installed 'stack' failed with the build tree hidden (preload library not found?)" ;;
	12) fail "installed 'probe --quick' failed with the build tree hidden" ;;
	13) fail "installed 'stat -M NOSUCH' did not exit 2" ;;
	14) fail "installed 'model' failed with the build tree hidden" ;;
	15) fail "installed 'stat --regions' failed or found no region with the build tree hidden (marker library not found?)" ;;
	*) fail "the run inside the mount namespace exited $rc" ;;
	esac
	grep -q "^archscope " "$TMP/version.out" || fail "no version from the installed binary"
	contains "$TMP/stat.err" "$P/bin/../share/archscope/groups"
	contains "$TMP/stat.err" "FLOPS"
	python3 - "$TMP" "$with_model" <<'PY' || fail "results of the installed binary"
import json, sys
tmp, with_model = sys.argv[1], sys.argv[2] == "1"
s = json.load(open(f"{tmp}/stack.json"))
runs = s["results"]["runs"]
assert [r["threads"] for r in runs] == [1, 2], runs
assert all(abs(sum(r["components"].values()) - r["threads"]) < 1e-6 for r in runs)
p = json.load(open(f"{tmp}/probe.json"))["results"]
assert p["line"]["value"] > 0 and p["caches"]["levels"], "probe answers"
if with_model:
    m = json.load(open(f"{tmp}/model.json"))["results"]
    assert m["flops_per_it"] == 2 and m["ecm_data"]["MEM"] > 0, m.get("ecm_data")
PY
	[ "$with_model" = 1 ] || echo "note: model not run from the installed tree: ${PREREQ_WHY:-no libclang}"
}
test_expect_success 'moved, with the source and build trees hidden: version, stack, probe --quick, stat -M and model run' 'moved_run'
test_done
