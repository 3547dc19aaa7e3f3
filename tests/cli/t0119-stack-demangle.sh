# C++ call sites are named by their demangled names, whole (issue 49 item 3.1): examples/stack/
# cxx-namespace.cpp waits at a barrier inside a member function of a class template in a namespace
# and joins its threads in another, both with mangled names longer than 100 characters (GROMACS's
# were cut at 100 characters while still mangled). Every site `stack --json` shows is a
# demangled name of that namespace, given whole (its parameter list and closing parenthesis), and
# no "_Z" mangled name; the text output shows the same name (cut, if at all, only there).
. "$(dirname "$0")/lib.sh"
SRC=$ROOT/examples/stack
command -v g++ >/dev/null || skip "needs g++ in PATH (Debian package g++)"
g++ -O2 -g -pthread -o "$TMP/cxx" "$SRC/cxx-namespace.cpp" -lm 2>"$TMP/cc.err" ||
	skip "g++ does not build cxx-namespace.cpp: $(head -3 "$TMP/cc.err")"
NS=archscope_example_molecular_dynamics::communication
BARRIER="$NS::NeighbourHaloExchange<double>::reverse_communicate_forces(double*, long)"
JOIN="$NS::RankTeam::start_all_ranks_and_wait_for_them(void* (*)(void*))"

test_expect_success 'the mangled names are longer than 100 characters (what is demangled)' '
	nm "$TMP/cxx" | awk "/reverse_communicate_forces|start_all_ranks_and_wait_for_them/ { print \$3 }" >"$TMP/mangled"
	cat "$TMP/mangled"
	[ "$(wc -l <"$TMP/mangled")" -eq 2 ] || fail "not both functions in the symbol table"
	awk "length(\$0) <= 100 { exit 1 }" "$TMP/mangled" || fail "a mangled name of 100 characters or fewer"
'
test_expect_success 'each site in --json is its whole demangled name' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- "$TMP/cxx" "{T}" 300
	json_get "\"\\n\".join(s[\"where\"] for s in d[\"results\"][\"runs\"][0][\"sites\"])" >"$TMP/sites"
	cat "$TMP/sites"
	[ -s "$TMP/sites" ] || fail "no site shown (dominant: $(json_get "d[\"results\"][\"runs\"][0][\"dominant\"]"))"
	! grep -q "_Z" "$TMP/sites" || fail "a mangled name"
	while IFS= read -r w; do
		case $w in
		"cxx-namespace.cpp:"*" ($BARRIER"*")" | "cxx-namespace.cpp:"*" ($JOIN)") ;;
		*) fail "not a whole demangled name of cxx-namespace.cpp: $w" ;;
		esac
	done <"$TMP/sites"
'
test_expect_success 'the text output shows the demangled name' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 -- "$TMP/cxx" "{T}" 300
	grep -F "top wait site" "$TMP/out" || fail "no top wait site in the text"
	grep -F "top wait site cxx-namespace.cpp:" "$TMP/out" >"$TMP/answer" || fail "the top wait site is not in cxx-namespace.cpp"
	grep -Fq "($NS::" "$TMP/answer" || fail "the text does not name the site demangled"
	! grep -q "_Z" "$TMP/out" || fail "a mangled name in the text"
'
test_done
