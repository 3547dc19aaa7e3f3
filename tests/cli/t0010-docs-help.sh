# Every command has docs/archscope-<command>.md, and its options match the command's --help.
. "$(dirname "$0")/lib.sh"
cmds=$("$ARCHSCOPE" help | awk '/^commands:/{f=1;next} f && /^  [a-z]/{print $1}')
[ -n "$cmds" ] || fail "no commands listed"
for c in $cmds; do
	case $c in help|version) continue ;; esac
	doc="$ROOT/docs/archscope-$c.md"
	[ -f "$doc" ] || fail "missing $doc"
	"$ARCHSCOPE" "$c" --help | grep -o -- '--[a-z][a-z-]*' | sort -u >"$TMP/help"
	grep -o -- '--[a-z][a-z-]*' "$doc" | sort -u >"$TMP/doc"
	diff "$TMP/help" "$TMP/doc" >"$TMP/diff" || { cat "$TMP/diff" >&2; fail "$c: --help and $doc disagree (< help, > doc)"; }
done
exit 0
