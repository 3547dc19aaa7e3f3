#!/usr/bin/env bash
# Writes the manual pages archscope(1) and archscope-COMMAND(1) into OUTDIR (build time, from
# cmake/man.cmake): NAME from the binary's command table (`archscope help`), SYNOPSIS from the
# usage lines of `archscope COMMAND --help` (the option tables), the rest from
# docs/archscope-COMMAND.md (docs/archscope.md for archscope(1), with a COMMANDS section listing the
# command table), through pandoc and cmake/man-filter.lua. A command without a docs page gets no
# manual page and a warning (t0010 fails on it). A page is rewritten only when its source changed.
#   gen-man.sh PANDOC ARCHSCOPE SOURCE_DIR OUTDIR VERSION
set -euo pipefail
pandoc=$1 archscope=$2 src=$3 out=$4 version=$5
mkdir -p "$out/md"
filter="$src/cmake/man-filter.lua"

# whole outputs first: a reader that stops early would make archscope's write fail (EPIPE)
help=$("$archscope" help)
cmds=$(awk '/^commands:/{f=1;next} f && /^  [a-z]/{print $1}' <<<"$help")
[ -n "$cmds" ] || { echo "gen-man: '$archscope help' lists no commands" >&2; exit 1; }

# render NAME MARKDOWN: the man page NAME.1 from the markdown file, when it differs from the last.
render() {
	local name=$1 md=$2 title
	title=$(tr '[:lower:]' '[:upper:]' <<<"$name")
	if [ -f "$out/$name.1" ] && cmp -s "$md" "$out/md/$name.md"; then
		return 0
	fi
	"$pandoc" -s -f gfm -t man --lua-filter="$filter" -M title="$title" -M section=1 \
		-M header="archscope manual" -M footer="archscope $version" -M date="" "$md" -o "$out/$name.1.tmp"
	mv "$out/$name.1.tmp" "$out/$name.1"
	cp "$md" "$out/md/$name.md"
}

# usage_lines CMD: the usage lines of `archscope CMD --help`, as an indented block.
usage_lines() {
	local text
	text=$("$archscope" "$1" --help)
	awk '/^usage: /{f=1; sub(/^usage: /, ""); print "    " $0; next}
		f && /^$/ {exit} f {sub(/^ +/, ""); print "    " $0}' <<<"$text"
}

pages=(archscope)
tmp="$out/md/next.md"
for c in $cmds; do
	case $c in help|version) continue ;; esac
	doc="$src/docs/archscope-$c.md"
	if [ ! -f "$doc" ]; then
		echo "gen-man: warning: no $doc: no manual page archscope-$c(1)" >&2
		continue
	fi
	summary=$(awk -v c="$c" '$1 == c { $1 = ""; sub(/^ +/, ""); print; exit }' <<<"$help")
	{
		printf '<!-- archscope %s -->\n\n# NAME\n\narchscope-%s - %s\n\n# SYNOPSIS\n\n' "$version" "$c" "$summary"
		usage_lines "$c"
		printf '\n'
		cat "$doc"
	} >"$tmp"
	render "archscope-$c" "$tmp"
	pages+=("archscope-$c")
done

# archscope(1): docs/archscope.md with the command table.
{
	printf '<!-- archscope %s -->\n\n' "$version"
	printf '# NAME\n\narchscope - measures what a machine really is and how fast code should run on it\n\n'
	printf '# SYNOPSIS\n\n'
	awk '/^usage: /{sub(/^usage: /, ""); print "    " $0; exit}' <<<"$help"
	printf '\n# COMMANDS\n\n'
	printf '| command | what it does |\n|---|---|\n'
	awk '/^commands:/{f=1;next} f && /^  [a-z]/{
		name = $1; $1 = ""; sub(/^ +/, ""); gsub(/\|/, "\\|")
		if (name == "help" || name == "version") printf "| `archscope %s` | %s |\n", name, $0
		else printf "| `archscope %s` | %s; see **archscope-%s**(1) |\n", name, $0, name }' <<<"$help"
	printf '\n'
	cat "$src/docs/archscope.md"
} >"$tmp"
render archscope "$tmp"
rm -f "$tmp"

# pages of commands that are gone
declare -A keep=()
for n in "${pages[@]}"; do keep[$n]=1; done
for f in "$out"/*.1; do
	[ -e "$f" ] || continue
	n=$(basename "$f" .1)
	[ -n "${keep[$n]:-}" ] || rm -f "$f" "$out/md/$n.md"
done
printf '%s\n' "${pages[@]}" >"$out/pages.txt"
