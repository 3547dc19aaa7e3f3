#!/bin/bash
# Installed names (issue 51 item 4): from a prefix made by cmake --install, the README's examples
# of model and machine list run unchanged by name (model stream-triad -m kvm-xeon-6-207), and
# the names resolve to the prefix's share/archscope, not to the source tree; a path is still read
# as a path, a file of that name in the current directory wins, and an unknown name says where it
# looked (exit 2).
. "$(dirname "$0")/lib.sh"
command -v cmake >/dev/null || skip "needs cmake in PATH"
build=$(cd "$(dirname "$ARCHSCOPE")" && pwd)
[ -f "$build/cmake_install.cmake" ] || skip "$build has no cmake_install.cmake"
run 0 cmake --install "$build" --prefix "$TMP/prefix"
P=$TMP/prefix
mkdir -p "$TMP/work" && cd "$TMP/work" || exit 1
unset ARCHSCOPE_SHARE_DIR

test_expect_success 'machine list: every installed machine file, kernel and group, in the prefix' '
	run 0 "$P/bin/archscope" machine list --json
	cp "$TMP/out" list.json
	for k in machine:kvm-xeon-6-207 kernel:stream-triad kernel:jacobi-2d-5pt group:FLOPS; do
		p=$(json_get "[f[\"path\"] for f in d[\"results\"][\"files\"] if f[\"kind\"] + \":\" + f[\"name\"] == \"$k\"]" list.json)
		case $p in *"$P/bin/../share/archscope/"*) ;; *) fail "$k: $p, not in the prefix" ;; esac
	done
	n=$(json_get "len(d[\"results\"][\"files\"])" list.json)
	want=$(ls "$P/share/archscope/machines"/*.yaml "$P/share/archscope/kernels"/*.c "$P/share/archscope/groups"/*.txt | wc -l)
	[ "$n" = "$want" ] || fail "$n files listed, $want installed"
	run 0 "$P/bin/archscope" machine schema --check list.json machine
'
test_expect_success LIBCLANG,GCC 'the README'\''s model and machine examples run by name from the prefix' '
	grep -E "^    archscope (model|machine list)" "$ROOT/README.md" | sed "s/#.*//" >examples
	[ "$(grep -c "archscope model" examples)" -ge 2 ] || fail "the README has no model examples: $(cat examples)"
	while read -r cmd args; do
		run 0 "$P/bin/archscope" $args
	done <examples
'
test_expect_success LIBCLANG 'a name resolves to the prefix, a path or a file here stays a path' '
	run 0 "$P/bin/archscope" model stream-triad.c -m kvm-xeon-6-207.yaml -D N 4000 --json
	[ "$(json_get "d[\"results\"][\"kernel\"]")" = "$P/bin/../share/archscope/kernels/stream-triad.c" ] ||
		fail "kernel: $(json_get "d[\"results\"][\"kernel\"]")"
	cp "$P/share/archscope/kernels/stream-triad.c" stream-triad
	run 0 "$P/bin/archscope" model stream-triad -m kvm-xeon-6-207 -D N 4000 --json
	[ "$(json_get "d[\"results\"][\"kernel\"]")" = stream-triad ] || fail "a file here did not win over the name"
	run 0 "$P/bin/archscope" model ./stream-triad -m "$P/share/archscope/machines/kvm-xeon-6-207.yaml" -D N 4000
'
test_expect_success 'an unknown name: exit 2, where it looked and what is there' '
	run 2 "$P/bin/archscope" machine show no-such-machine
	contains "$TMP/err" "no machines named .no-such-machine."
	contains "$TMP/err" "share/archscope/machines"
	contains "$TMP/err" "kvm-xeon-6-207"
	run 2 "$P/bin/archscope" model .hidden -m kvm-xeon-6-207
	contains "$TMP/err" "neither a file nor a name"
'
test_done
