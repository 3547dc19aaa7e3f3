# Wait and spin sites get file:line without .debug_aranges (issue 36 item 4): examples/stack/
# barrier.c and user-spin.c built with clang (which emits no .debug_aranges: the compile units'
# own ranges are walked), gcc, -gdwarf-4 and -gdwarf-5, and split DWARF (-gsplit-dwarf: the
# skeleton unit keeps the ranges and the line table), each site named "barrier.c:N (worker)" (or
# the join in common.h when the end imbalance is the dominant delimiter), never "no line
# information"; and the hand-written spin lock's sampled site in user-spin.c.
. "$(dirname "$0")/lib.sh"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
SRC=$ROOT/examples/stack
sites() { json_get "'\\n'.join(s['primitive'] + ' ' + s['where'] for s in d['results']['runs'][0]['sites'])"; }
for cc in gcc clang; do
	for flags in "-g" "-gdwarf-4" "-gdwarf-5" "-g -gsplit-dwarf"; do
		test_expect_success "$cc $flags: each wait site has its file:line" '
			command -v $cc >/dev/null || skip "$cc: not in PATH"
			out=$TMP/barrier-$cc-$(echo $flags | tr -d " -")
			(cd "$TMP" && $cc -O2 $flags -pthread -o "$out" "$SRC/barrier.c" -lm 2>/dev/null) ||
				skip "$cc $flags: does not build"
			aranges=$(readelf -S "$out" 2>/dev/null | grep -c debug_aranges)
			run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- "$out" "{T}" 300
			sites >"$TMP/sites"
			echo "$cc $flags (.debug_aranges: $aranges): $(tr "\n" ";" <"$TMP/sites")"
			[ -s "$TMP/sites" ] || fail "$cc $flags: no site"
			grep -q "no line information" "$TMP/sites" && fail "$cc $flags: a site without its line"
			grep -Eq "^(barrier|omp_barrier) barrier\.c:[0-9]+ \(worker\)|^join common\.h:[0-9]+ \(main\)|^[a-z_]+ [a-z_.-]+\.[ch]:[0-9]+ \(" "$TMP/sites" ||
				fail "$cc $flags: no file:line site"
		'
	done
done
# a spin site from sampling, in a clang binary
test_expect_success 'the hand-written spin lock'"'"'s sampled site has its line (clang)' '
	command -v clang >/dev/null || skip "clang: not in PATH"
	clang -O2 -g -pthread -o "$TMP/user-spin" "$SRC/user-spin.c" -lm || fail "clang does not build user-spin.c"
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- "$TMP/user-spin" "{T}" 1500
	[ "$(json_get "\"sampling\" in d[\"results\"]")" = False ] || skip "sampling refused: no spin site to check"
	"$PY" - "$TMP/out" <<-\PY || fail "user-spin (clang): its spin site has no line"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]["runs"][0]
	spin = [s["where"] for s in r["sites"] if s["primitive"] == "user_spin"]
	print("user-spin (clang):", r["dominant"], spin, "user_spin %.3f" % r["by_primitive"]["user_spin"])
	# shown when spinning is the dominant delimiter; then it is in user-spin.c with its line
	assert r["dominant"] != "spinning" or (spin and all(w.startswith("user-spin.c:") for w in spin)), spin
	PY
'
test_done
