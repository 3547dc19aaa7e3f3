# The manual pages the build makes from docs/ and --help: archscope(1) and archscope-COMMAND(1) for
# every command; each renders with man (and groff -ww) without a warning, names the command in
# NAME (lexgrog reads it), carries --help's usage lines in SYNOPSIS and the same --options as
# --help (so page and help cannot drift apart); each docs/ page names its manual page.
. "$(dirname "$0")/lib.sh"
require PANDOC
command -v man >/dev/null || skip "needs man in PATH (Debian package man-db)"
dir=$(dirname "$ARCHSCOPE")/man
export LC_ALL=C.UTF-8
cmds=$("$ARCHSCOPE" help | awk '/^commands:/{f=1;next} f && /^  [a-z]/{print $1}')
pages=archscope
for c in $cmds; do
	case $c in help|version) continue ;; esac
	pages="$pages archscope-$c"
done
# check_page PAGE: the checks of one manual page
check_page() {
	local p=$1 f=$dir/$1.1 s c doc
	[ -f "$f" ] || fail "no manual page $f"
	MANWIDTH=80 man --warnings -l "$f" >"$TMP/page" 2>"$TMP/warn" || fail "man -l $f failed"
	[ ! -s "$TMP/warn" ] || { cat "$TMP/warn"; fail "man --warnings on $p.1"; }
	if command -v groff >/dev/null; then
		groff -ww -z -man -Tutf8 "$f" 2>"$TMP/warn"
		[ ! -s "$TMP/warn" ] || { cat "$TMP/warn"; fail "groff -ww on $p.1"; }
	fi
	head -n 1 "$TMP/page" | grep -q "$(tr '[:lower:]' '[:upper:]' <<<"$p")(1)" || fail "$p.1: no title line"
	for s in NAME SYNOPSIS DESCRIPTION; do grep -q "^$s\$" "$TMP/page" || fail "$p.1 has no $s section"; done
	if command -v lexgrog >/dev/null; then
		lexgrog "$f" | grep -q "\"$p - " || fail "lexgrog finds no NAME line '$p - ...' in $p.1"
	fi
	[ "$p" = archscope ] && return 0
	c=${p#archscope-}
	doc=$ROOT/docs/$p.md
	grep -q "$p(1)" "$doc" || fail "$doc does not name its manual page $p(1)"
	# wide, so that no option is split at the end of a line
	MANWIDTH=1000 man -l "$f" 2>/dev/null >"$TMP/wide"
	"$ARCHSCOPE" "$c" --help >"$TMP/help"
	awk '/^usage: /{f=1; sub(/^usage: +/, ""); print; next} f && /^$/{exit} f{sub(/^ +/, ""); print}' "$TMP/help" |
	while IFS= read -r u; do
		grep -qF -- "$u" "$TMP/wide" || fail "$p.1: SYNOPSIS lacks the usage line '$u'"
	done || exit 1
	grep -o -- '--[a-z][a-z-]*' "$TMP/help" | sort -u >"$TMP/h"
	grep -o -- '--[a-z][a-z-]*' "$TMP/wide" | sort -u >"$TMP/m"
	diff "$TMP/h" "$TMP/m" || fail "$p.1 and '$c --help' name different options (< help, > man)"
}
for p in $pages; do
	test_expect_success "$p.1 renders cleanly and agrees with --help and docs/" 'check_page "$p"'
done
# archscope(1) lists every command
test_expect_success 'archscope.1 lists every command' '
	MANWIDTH=1000 man -l "$dir/archscope.1" 2>/dev/null >"$TMP/wide"
	for c in $cmds; do grep -q "archscope $c" "$TMP/wide" || fail "archscope.1 does not list '\''$c'\''"; done
'
test_done
