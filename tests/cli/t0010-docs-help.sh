# Every command has docs/archscope-<command>.md, and its options match the command's --help.
# One case per command.
. "$(dirname "$0")/lib.sh"
cmds=$("$ARCHSCOPE" help | awk '/^commands:/{f=1;next} f && /^  [a-z]/{print $1}')
[ -n "$cmds" ] || fail "no commands listed"
for c in $cmds; do
	case $c in help|version) continue ;; esac
	test_expect_success "$c: docs/archscope-$c.md names the options of '$c --help'" '
		doc="$ROOT/docs/archscope-$c.md"
		[ -f "$doc" ] || fail "missing $doc"
		"$ARCHSCOPE" "$c" --help | grep -o -- "--[a-z][a-z-]*" | sort -u >"$TMP/help-$c"
		grep -o -- "--[a-z][a-z-]*" "$doc" | sort -u >"$TMP/doc-$c"
		diff "$TMP/help-$c" "$TMP/doc-$c" || fail "$c: --help and $doc disagree (< help, > doc)"
	'
done
test_done
