# The bash completion generated at build time from the option tables: driven with COMP_WORDS and
# COMP_CWORD in a bash without bash-completion, it completes commands, each command's options,
# sub-commands, probe groups, bench kernels, CHOICE values, file names where a file is expected
# and programs after '--'; every option --help lists is offered, and nothing else.
. "$(dirname "$0")/lib.sh"
build=$(dirname "$ARCHSCOPE")
comp=$build/completion/archscope
[ -f "$comp" ] || fail "no $comp (the build writes it with python3)"
test_expect_success 'the completion is valid bash' 'bash -n "$comp" || fail "$comp is not valid bash"'
test_expect_success 'sourcing it registers _archscope for archscope' '
	bash --norc --noprofile -c ". \"\$1\" && complete -p archscope" bash "$comp" | grep -q -- "-F _archscope archscope" ||
		fail "sourcing $comp registers no completion for archscope"
'

mkdir -p "$TMP/files/sub"
touch "$TMP/files/kernel.c" "$TMP/files/kernel2.c" "$TMP/files/m.yaml"

# complete WORD... : COMPREPLY, one a line, for the last word being completed (cwd $TMP/files)
complete_words() {
	(cd "$TMP/files" && bash --norc --noprofile -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_archscope archscope
		printf "%s\n" "${COMPREPLY[@]}"' bash "$comp" "$@") | sort
}
# expect_ "WORDS..." "EXPECTED REPLIES" (space-separated, sorted order not needed)
expect_() {
	local got want
	local -a words
	eval "words=($1)" # "archscope probe ''": the last word empty
	got=$(complete_words "${words[@]}" | tr '\n' ' ' | sed 's/ $//')
	want=$(tr -s ' ' '\n' <<<"$2" | grep -v '^$' | sort | tr '\n' ' ' | sed 's/ $//')
	[ "$got" = "$want" ] || fail "completing '$1': got '$got', expected '$want'"
}
# has_ "WORDS..." WORD...: the replies include each WORD
has_() {
	local -a words
	local w got
	eval "words=($1)"; shift
	got=$(complete_words "${words[@]}")
	for w in "$@"; do grep -qx -- "$w" <<<"$got" || fail "completing '${words[*]}': no '$w' in: $(tr '\n' ' ' <<<"$got")"; done
}
# expect and has as cases
expect() { exp_words=$1 exp_want=$2; test_expect_success "completing '$1' gives '$2'" 'expect_ "$exp_words" "$exp_want"'; }
has() { has_args=("$@"); test_expect_success "completing '$1' offers ${*:2}" 'has_ "${has_args[@]}"'; }

# commands, from the command table
cmds=$("$ARCHSCOPE" help | awk '/^commands:/{f=1;next} f && /^  [a-z]/{print $1}' | tr '\n' ' ' | sed 's/ $//')
expect "archscope ''" "$cmds"
expect "archscope pro" "probe"
expect "archscope help ben" "bench"
# each command's options are exactly the long and short options its --help lists
for c in $cmds; do
	case $c in help|version) continue ;; esac
	# the left column of the option list: "  -o, --output FILE  help"
	want=$("$ARCHSCOPE" "$c" --help | awk '/^options:/{f=1;next} f && /^  -/{sub(/^  /, ""); sub(/  .*/, ""); print}' |
		grep -oE '(^|[ ,])--?[a-zA-Z][a-zA-Z0-9-]*' | sed 's/^[ ,]*//' | sort -u | tr '\n' ' ' | sed 's/ $//')
	test_expect_success "$c: the options completed are those --help lists" '
		got=$(complete_words archscope "$c" - | grep -v "^--\$" | sort -u | tr "\n" " " | sed "s/ \$//")
		[ "$got" = "$want" ] || fail "options of $c: completion '\''$got'\'', --help '\''$want'\''"
	'
done
# probe groups and bench kernels from their tables
groups=$("$ARCHSCOPE" probe --help | awk '/^groups:/{f=1;next} f && /^  [a-z]/{print $1} f && /^$/{exit}' | tr '\n' ' ')
expect "archscope probe ''" "$groups all"
expect "archscope probe --quick ca" "caches"
expect "archscope probe caches c" "caches clock contexts c2c"
expect "archscope bench ''" "load store copy update stream triad daxpy sum ddot"
expect "archscope bench --level ''" "L1 L2 L3 MEM"
expect "archscope bench -t 2 tr" "triad"
expect "archscope model -p EC" "ECMData ECMCPU ECM"
expect "archscope model --cache-predictor = s" "sim"     # split at '=' (COMP_WORDBREAKS)
expect "archscope model --cache-predictor =" "lc sim"
expect "archscope model --cache-predictor=s" "--cache-predictor=sim"
expect "archscope analyze --method first" "first-step"
has "archscope stat -M ''" FLOPS MEM
# files where a file is expected: positionals and FILE values
expect "archscope model ker" "kernel.c kernel2.c"
expect "archscope model kernel.c -m m" "m.yaml"
expect "archscope model -D N 100 -m m.yaml ker" "kernel.c kernel2.c"   # -D takes two words
expect "archscope model -D N ''" ""
expect "archscope probe -o ''" "kernel.c kernel2.c m.yaml sub"
expect "archscope probe --raw ''" "sub"
# sub-commands and their own tables
expect "archscope machine ''" "show validate diff answers list export schema"
expect "archscope machine diff --" "--all --json --help"
expect "archscope machine show ''" "kernel.c kernel2.c m.yaml sub"
expect "archscope numa mo" "model"
has "archscope numa model --" --matrix --flow --json
expect "archscope tune st" "stencil"
# a program after '--', for the commands that run one
has "archscope stat -- ech" echo
has "archscope stack -t 1,2 -- bas" bash
has "archscope whatif --rounds 2 -- bas" bash
expect "archscope whatif --by ''" "function line"
expect "archscope whatif --plot ''" "sub"
has "archscope stat -" --
expect "archscope topology -" "--json --help -h"
test_done
