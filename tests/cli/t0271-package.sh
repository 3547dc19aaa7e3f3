# `cmake --build BUILD --target package` makes a Debian package (CPack DEB): its control fields
# declare the shared libraries (dpkg-shlibdeps) and libclang, which model opens with dlopen; it holds
# the binary, the preload library, the data, the manual pages and the completion under /usr; and
# unpacked into a scratch root (dpkg -x) the binary runs from there and finds its files; Debian's
# policy checks: compressed manual pages, copyright, changelog.Debian.gz, a real maintainer,
# openmpi-bin recommended with archscope-cluster, and lintian with no error or warning (LINTIAN).
. "$(dirname "$0")/lib.sh"
require DPKG
command -v cmake >/dev/null || skip "needs cmake in PATH"
build=$(cd "$(dirname "$ARCHSCOPE")" && pwd)
[ -f "$build/CPackConfig.cmake" ] || fail "$build has no CPackConfig.cmake"
rm -f "$build"/archscope_*.deb
run 0 cmake --build "$build" --target package
deb=$(ls "$build"/archscope_*.deb 2>/dev/null | head -n 1)
[ -f "$deb" ] || { cat "$TMP/out" >&2; fail "no archscope_*.deb in $build"; }
test_expect_success 'the control fields: package, version, the shared libraries and libclang, llvm recommended' '
	run 0 dpkg-deb -f "$deb" Package Version Architecture Depends Recommends
	cp "$TMP/out" "$TMP/control"
	contains "$TMP/control" "^Package: archscope$"
	contains "$TMP/control" "^Version: $("$ARCHSCOPE" --version | cut -d" " -f2)-[0-9][0-9]*$"
	depends=$(sed -n "s/^Depends: //p" "$TMP/control")
	for lib in libc6 libhwloc libjansson libyaml libgsl libpfm4 libnuma libdw libclang1; do
		grep -q "$lib" <<<"$depends" || fail "Depends lacks $lib: $depends"
	done
	contains "$TMP/control" "^Recommends: .*llvm"
	dpkg-deb -c "$deb" >"$TMP/files"
	if grep -q "usr/bin/archscope-cluster$" "$TMP/files"; then
		contains "$TMP/control" "^Recommends: .*openmpi-bin"
	fi
	run 0 dpkg-deb -f "$deb" Maintainer
	! grep -qi "localhost" "$TMP/out" || fail "maintainer on localhost: $(cat "$TMP/out")"
	grep -q "^[^<]* <[^@ ]*@[^@ ]*\.[a-z]*>$" "$TMP/out" || fail "no maintainer address: $(cat "$TMP/out")"
'
run 0 dpkg-deb -c "$deb"
cp "$TMP/out" "$TMP/contents"
test_expect_success 'the contents: binary, preload library, data and completion under /usr, no build-tree path' '
	for f in ./usr/bin/archscope /archscope/libarchscope-preload.so ./usr/share/archscope/groups/FLOPS.txt \
		./usr/share/archscope/kernels/stream-triad.c ./usr/share/bash-completion/completions/archscope; do
		contains "$TMP/contents" "$f"
	done
	! grep -q "$build" "$TMP/contents" || fail "a build-tree path in the package"
'
test_expect_success PANDOC 'the contents: the manual pages, compressed' '
	contains "$TMP/contents" "./usr/share/man/man1/archscope-probe.1.gz"
	! grep -q "man1/.*\.1$" "$TMP/contents" || fail "an uncompressed manual page: $(grep "man1/.*\.1$" "$TMP/contents" | head -n 1)"
'
test_expect_success 'the contents: copyright and changelog.Debian.gz in usr/share/doc/archscope' '
	contains "$TMP/contents" "./usr/share/doc/archscope/copyright$"
	contains "$TMP/contents" "./usr/share/doc/archscope/changelog.Debian.gz$"
'
test_expect_success LINTIAN 'lintian: no error and no warning' '
	# initial-upload-closes-no-bugs asks for the ITP bug of a first upload to Debian: none, this
	# package is not uploaded there
	lintian --no-tag-display-limit --suppress-tags initial-upload-closes-no-bugs "$deb" >"$TMP/lintian" 2>&1
	if grep -E "^(E|W): " "$TMP/lintian" >"$TMP/bad"; then
		cat "$TMP/bad" >&2
		fail "lintian: $(wc -l <"$TMP/bad") errors or warnings"
	fi
'

# unpacked into a scratch root: the binary finds its library and data under that root's /usr
run 0 dpkg -x "$deb" "$TMP/root"
R=$TMP/root/usr
test_expect_success 'unpacked into a scratch root: the binary runs and finds its data there' '
	run 0 "$R/bin/archscope" --version
	run 2 "$R/bin/archscope" stat -M NOSUCH -- true
	contains "$TMP/err" "$R/bin/../share/archscope/groups"
'
test_expect_success 'unpacked into a scratch root: stack finds its preload library there' '
	[ -x "$build/stack-barrier" ] || skip "needs the stack examples beside $ARCHSCOPE"
	run 0 env -u ARCHSCOPE_PRELOAD "$R/bin/archscope" stack -q -t 1 -r 1 --json -- "$build/stack-barrier" "{T}" 100
	json_get "d[\"results\"][\"runs\"][0][\"threads\"]" | grep -qx 1 || fail "stack from the unpacked package"
'
test_done
