#!/usr/bin/env python3
"""Writes the bash completion of archscope (build time, from cmake/completion.cmake).

Everything comes from the binary: the commands from `archscope help`, and for each command (and
each sub-command its usage lines name: `machine show`, `numa load`, `tune gemm`) the option table
from the hidden `archscope CMD [SUB] --archscope-completion` (src/cli/parse-options.h): options,
which take a value and what kind (a FILE, a DIR, one of the CHOICE words, metric GROUP names from
share/groups), the usage lines (a positional FILE, KERNEL.c, A.json ... completes file names,
`-- CMD` a program) and the words a positional may be (probe groups, bench kernels). A new command
or option is picked up at the next build with no change here.

    gen-completion.py ARCHSCOPE SHARE_GROUPS_DIR OUTPUT
"""
import os
import re
import subprocess
import sys


def run(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout


def commands(exe):
    rc, out = run([exe, "help"])
    if rc != 0:
        sys.exit(f"gen-completion: '{exe} help' exited {rc}")
    names, on = [], False
    for line in out.splitlines():
        if line.startswith("commands:"):
            on = True
            continue
        m = re.match(r"^  ([a-z][a-z0-9-]*)\s", line)
        if on and m:
            names.append(m.group(1))
    if not names:
        sys.exit(f"gen-completion: '{exe} help' lists no commands")
    return names


def table(exe, words):
    """The completion table of `archscope WORDS...`, or None when it has none."""
    rc, out = run([exe, *words, "--archscope-completion"])
    if rc != 0:
        return None
    t = {"usage": [], "options": [], "words": []}
    for line in out.splitlines():
        f = line.split("\t")
        if f[0] == "usage" and len(f) >= 2:
            t["usage"].append(f[1])
        elif f[0] == "option" and len(f) >= 6:
            t["options"].append({"short": f[1], "long": f[2], "kind": f[3], "argh": f[4],
                                 "choices": f[5].split() if f[5] else []})
        elif f[0] == "word" and len(f) >= 2:
            t["words"].append(f[1])
    return t if t["usage"] or t["options"] else None


FILEISH = re.compile(r"(FILE|PATH|\.(c|json|yaml|yml|csv|html|txt|xml))$")


def value_kind(o, groups):
    """What an option's value completes to: flag, pair, none, file, dir or words:W W ..."""
    if o["kind"] == "flag":
        return "flag"
    if o["kind"] == "pair":
        return "pair"
    if o["choices"]:
        return "words:" + " ".join(o["choices"])
    a = o["argh"].rstrip(".")
    if a == "DIR" or a.endswith("DIR"):
        return "dir"
    if FILEISH.search(a):
        return "file"
    if a == "GROUP" and groups:
        return "words:" + " ".join(groups)
    return "none"


def positional_kind(t, prefix, subs):
    """From the usage lines: words (the table's), file, or none; and whether '--' runs a program."""
    runs = False
    fileish = False
    valued = {}
    for o in t["options"]:
        for n in (o["short"], o["long"]):
            if n:
                valued[n] = 0 if o["kind"] == "flag" else (len(o["argh"].split()) or 1)
    for line in t["usage"]:
        toks = [x for x in re.split(r"[\s|]+", line) if x]
        if toks[:len(prefix)] != prefix:
            continue
        toks = toks[len(prefix):]
        if toks and toks[0] in subs:
            toks = toks[1:]
        i = 0
        while i < len(toks):
            w = toks[i].strip("[]").rstrip(".").strip("[]")
            i += 1
            if w == "--":
                runs = True
                break
            if w.startswith("-"):
                i += valued.get(w.split("=")[0], 0)
                continue
            if w in ("options", "<args>", "<command>"):
                continue
            if FILEISH.search(w) or re.search(r"FILE", w):
                fileish = True
    if t["words"]:
        return "words", runs
    return ("file" if fileish else "none"), runs


def quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: gen-completion.py ARCHSCOPE SHARE_GROUPS_DIR OUTPUT")
    exe, groups_dir, out_path = sys.argv[1:]
    groups = sorted(f[:-4] for f in os.listdir(groups_dir) if f.endswith(".txt")) if os.path.isdir(groups_dir) else []
    _, version = run([exe, "--version"])
    cmds = commands(exe)
    keys = {}    # "probe" / "machine show" -> table
    subs = {}    # command -> [sub-commands]
    for c in cmds:
        if c in ("help", "version"):
            continue
        t = table(exe, [c])
        if t is None:
            sys.exit(f"gen-completion: '{exe} {c} --archscope-completion' gives no table")
        found = []
        for line in t["usage"]:
            toks = line.split()
            if len(toks) > 2 and toks[:2] == ["archscope", c] and re.fullmatch(r"[a-z][a-z0-9-]*", toks[2]):
                if toks[2] not in found:
                    found.append(toks[2])
        subs[c] = []
        for s in found:
            st = table(exe, [c, s])
            if st is not None:
                subs[c].append(s)
                keys[f"{c} {s}"] = st
        keys[c] = t

    lines = []
    emit = lines.append
    emit(f"# bash completion for archscope ({version.strip()}), generated at build time by")
    emit("# cmake/gen-completion.py from the binary's command and option tables; do not edit.")
    emit("# Installed as share/bash-completion/completions/archscope.")
    emit("")
    emit("_archscope_commands=" + quote(" ".join(cmds)))
    emit("")
    emit("# _archscope_info KEY: sets _as_opts (every option), _as_subs (sub-commands), _as_pos (what a")
    emit("# positional is: words, file, none), _as_words (its words) and _as_runs (1 when '--' runs a program).")
    emit("_archscope_info() {")
    emit("\t_as_opts= _as_subs= _as_pos=none _as_words= _as_runs=0")
    emit("\tcase $1 in")
    for key, t in keys.items():
        c = key.split()[0]
        prefix = ["archscope"] + key.split()
        sub_list = subs.get(key, []) if " " not in key else []
        pos, runs = positional_kind(t, prefix, sub_list)
        if sub_list:
            pos = "none"  # the sub-command comes first; its own key says the rest
        opts = []
        for o in t["options"]:
            opts += [n for n in (o["long"], o["short"]) if n]
        parts = [f"_as_opts={quote(' '.join(opts))}"]
        if sub_list:
            parts.append(f"_as_subs={quote(' '.join(sub_list))}")
        parts.append(f"_as_pos={pos}")
        if pos == "words":
            parts.append(f"_as_words={quote(' '.join(t['words']))}")
        if runs:
            parts.append("_as_runs=1")
        emit(f"\t{quote(key)}) " + " ".join(parts) + " ;;")
    emit("\tesac")
    emit("}")
    emit("")
    emit("# _archscope_value KEY OPTION: what OPTION's value is (flag: it takes none; pair: two words;")
    emit("# none: nothing to complete; file; dir; words:W W ...).")
    emit("_archscope_value() {")
    emit("\tcase \"$1 $2\" in")
    by_kind = {}
    for key, t in keys.items():
        for o in t["options"]:
            k = value_kind(o, groups)
            if k == "flag":
                continue
            for n in (o["long"], o["short"]):
                if n:
                    by_kind.setdefault(k, []).append(f"{key} {n}")
    for k, pats in by_kind.items():
        emit("\t" + "|".join(quote(p) for p in pats) + f") echo {quote(k)} ;;")
    emit("\t*) echo flag ;;")
    emit("\tesac")
    emit("}")
    emit("")
    emit(BODY)
    text = "\n".join(lines) + "\n"
    tmp = out_path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, out_path)


BODY = r'''# _archscope_reply KIND CUR: COMPREPLY for a value or positional of that kind.
_archscope_reply() {
	local kind=$1 cur=$2
	case $kind in
	file) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
	dir) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
	words:*) mapfile -t COMPREPLY < <(compgen -W "${kind#words:}" -- "$cur") ;;
	*) COMPREPLY=() ;;
	esac
}

_archscope() {
	local cur=${COMP_WORDS[COMP_CWORD]} cmd= sub= key= w kind n value= i=1 dd=0 prog=-1
	local _as_opts _as_subs _as_pos _as_words _as_runs
	COMPREPLY=()
	# the words before the cursor: the command, a sub-command, options and the values they take
	while [ "$i" -lt "$COMP_CWORD" ]; do
		w=${COMP_WORDS[i]}
		if [ -z "$cmd" ]; then
			case $w in -*) ;; *) cmd=$w key=$w; _archscope_info "$key" ;; esac
		elif [ "$dd" = 1 ]; then
			[ "$prog" -lt 0 ] && prog=$i
		elif [ "$w" = "--" ]; then
			dd=1
		elif [[ $w == -* ]]; then
			kind=$(_archscope_value "$key" "${w%%=*}") n=0
			if [ "${COMP_WORDS[i+1]:-}" = "=" ]; then
				n=2   # --opt=VALUE, split at '=' by COMP_WORDBREAKS
			elif [[ $w != *=* ]]; then
				case $kind in flag) ;; pair) n=2 ;; *) n=1 ;; esac
			fi
			if [ "$n" -gt 0 ] && [ $((i + n)) -ge "$COMP_CWORD" ]; then
				value=$kind   # the cursor is on this option's value
				break
			fi
			i=$((i + n))
		elif [ -z "$sub" ] && [[ " $_as_subs " == *" $w "* ]]; then
			sub=$w key="$cmd $w"
			_archscope_info "$key"
		fi
		i=$((i + 1))
	done

	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "--help --version -h -V" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "$_archscope_commands" -- "$cur")
		fi
		return 0
	fi
	if [ "$cmd" = help ]; then
		[ "$COMP_CWORD" -eq 2 ] && mapfile -t COMPREPLY < <(compgen -W "$_archscope_commands" -- "$cur")
		return 0
	fi
	if [ "$dd" = 1 ]; then   # the program after '--', then its own arguments
		if [ "$prog" -lt 0 ]; then
			mapfile -t COMPREPLY < <(compgen -c -- "$cur")
		elif declare -F _command_offset >/dev/null; then
			_command_offset "$prog"
		else
			_archscope_reply file "$cur"
		fi
		return 0
	fi
	# the value of an option: "--opt VALUE", "--opt=VALUE" (split at '=', or one word), "-o VALUE"
	if [ -n "$value" ]; then
		[ "$cur" = "=" ] && cur=
		case $value in pair|none) ;; *) _archscope_reply "$value" "$cur" ;; esac
		return 0
	fi
	if [[ $cur == --*=* ]]; then   # '=' not in COMP_WORDBREAKS
		local opt=${cur%%=*}
		_archscope_reply "$(_archscope_value "$key" "$opt")" "${cur#*=}"
		[ "${#COMPREPLY[@]}" -gt 0 ] && COMPREPLY=("${COMPREPLY[@]/#/$opt=}")
		return 0
	fi
	if [[ $cur == -* ]]; then
		local more=$_as_opts
		[ "$_as_runs" = 1 ] && more="$more --"
		mapfile -t COMPREPLY < <(compgen -W "$more" -- "$cur")
		return 0
	fi
	if [ -n "$_as_subs" ] && [ -z "$sub" ]; then
		mapfile -t COMPREPLY < <(compgen -W "$_as_subs" -- "$cur")
		return 0
	fi
	case $_as_pos in
	words) _archscope_reply "words:$_as_words" "$cur" ;;
	file) _archscope_reply file "$cur" ;;
	esac
	return 0
}
complete -F _archscope archscope'''

if __name__ == "__main__":
    main()
