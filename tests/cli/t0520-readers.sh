# Readers outside the checked path (issue 52): model's parse-cache entry and stat -M's metric-group
# files go through the one checked reader. A cache entry that is a FIFO, a directory or a link loop
# is a miss with a note, never a hang (each run under `timeout 20`); a group file with a NUL byte,
# bytes that are not UTF-8, an event listed twice, a metric that is not well formed, 5 GiB or a
# 600-character line is refused before anything runs, exit 2, naming the file, the line and why.
. "$(dirname "$0")/lib.sh"

# --- the parse cache -------------------------------------------------------------------------
SNB="$ROOT/tests/fixtures/machines/kerncraft-snb-e5-2680.yml"
K="$TMP/jacobi.c"
cp "$ROOT/kernels/jacobi-2d-5pt.c" "$K"
# the entry's name: FNV-1a (64 bits) of the kernel's bytes and their count (model/kernel-cache.c)
ENTRY="$ARCHSCOPE_CACHE_DIR/kernels/$(python3 - "$K" <<-\PY
	import sys
	b = open(sys.argv[1], "rb").read()
	h = 0xcbf29ce484222325
	for c in b:
	    h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
	print("%016x-%d.bin" % (h, len(b)))
	PY
)"
mkdir -p "${ENTRY%/*}"
args=(model "$K" -m "$SNB" -D N 2000 -D M 1000 -p LC)

# model_bad_entry: runs model under timeout 20 with the entry as it is; exit 0 where libclang
# parses, 1 ("cannot load libclang") where it does not, never 124 (a hang)
model_bad_entry() {
	timeout 20 "$ARCHSCOPE" "${args[@]}" >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	[ "$rc" -ne 124 ] || fail "model hung on a parse-cache entry that is $1"
	{ [ "$rc" -eq 0 ] || { [ "$rc" -eq 1 ] && grep -q "cannot load libclang" "$TMP/err"; }; } ||
		{ cat "$TMP/err" >&2; fail "model exited $rc"; }
	contains "$TMP/err" "note: parse-cache entry '$ENTRY' $2: not used, the kernel was parsed"
}

test_expect_success 'a parse-cache entry that is a FIFO: a miss with a note, no hang' '
	mkfifo "$ENTRY" &&
	model_bad_entry "a FIFO" "is a FIFO" &&
	[ -p "$ENTRY" ] || fail "the FIFO was replaced"
'

test_expect_success 'a parse-cache entry that is a directory or a link loop: a miss with a note' '
	rm -rf "$ENTRY" && mkdir "$ENTRY" &&
	model_bad_entry "a directory" "is a directory" &&
	rmdir "$ENTRY" && ln -s "$ENTRY" "$ENTRY" &&
	timeout 20 "$ARCHSCOPE" "${args[@]}" >"$TMP/out" 2>"$TMP/err"
	[ $? -ne 124 ] || fail "hung on a link loop"
	contains "$TMP/err" "note: cannot open parse-cache entry .*: too many levels of symbolic links: not used"
	rm -f "$ENTRY"
'

test_expect_success LIBCLANG 'after a bad entry: the same output as without one, and a good entry is used again' '
	rm -rf "$ARCHSCOPE_CACHE_DIR" &&
	run 0 "$ARCHSCOPE" "${args[@]}" && cp "$TMP/out" "$TMP/cold" &&
	[ -f "$ENTRY" ] || fail "no entry $ENTRY (the name the test computes is not the cache'"'"'s)"
	rm -f "$ENTRY" && mkfifo "$ENTRY" &&
	model_bad_entry "a FIFO" "is a FIFO" &&
	cmp -s "$TMP/out" "$TMP/cold" || fail "output beside a FIFO entry differs"
	rm -f "$ENTRY" && run 0 "$ARCHSCOPE" "${args[@]}" &&
	ARCHSCOPE_LIBCLANG=/nonexistent/libclang.so run 0 "$ARCHSCOPE" "${args[@]}" &&
	! grep -q "parse-cache" "$TMP/err" &&
	cmp -s "$TMP/out" "$TMP/cold" || fail "cached output differs"
'

# --- metric groups ---------------------------------------------------------------------------
export ARCHSCOPE_SHARE_DIR="$TMP/share"
G="$ARCHSCOPE_SHARE_DIR/groups"
mkdir -p "$G"
# group TEXT: writes groups/BAD.txt (printf format: \0 and \351 bytes)
group() { printf "$1" >"$G/BAD.txt"; }
# refused LINE WHY: stat -M bad is refused with exit 2 before anything runs, naming file, line, why
refused() {
	timeout 20 "$ARCHSCOPE" stat -q -M bad -- touch "$TMP/ran" >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	[ "$rc" -eq 2 ] || { cat "$TMP/err" >&2; fail "stat -M exited $rc, expected 2"; }
	[ ! -e "$TMP/ran" ] || fail "the program ran"
	contains "$TMP/err" "^archscope: error: metric group '$G/BAD.txt'$1"
	contains "$TMP/err" "$2"
}
HEAD='SHORT test\nEVENTSET generic\ninstructions\nbranches\ncycles\nMETRICS\n'

test_expect_success 'a good group file of the user: counted' '
	group "${HEAD}Branches per instruction | x | branches / instructions\nIPC | x | \$1 / \$3\n" &&
	run 0 "$ARCHSCOPE" stat -q -r 1 -M bad --json -o "$TMP/j.json" -- true &&
	python3 -c "import json,sys; d=json.load(open(sys.argv[1]))[\"results\"]; assert d[\"group\"] == \"BAD\" and len(d[\"metrics\"]) == 2, d" "$TMP/j.json"
'

test_expect_success 'a NUL byte in an event name: refused, naming the line' '
	group "EVENTSET generic\ninstr\0uctions\n" &&
	refused ": line 2: a NUL byte (column 6)" "a binary file, not text"
'

test_expect_success 'an event name that is not UTF-8: refused' '
	group "EVENTSET generic\ncycl\351s\n" &&
	refused ": line 2: byte 0xE9 (column 5) is not UTF-8" "give the file as UTF-8"
'

test_expect_success 'an event name that is not ASCII, or holds a space: refused' '
	group "EVENTSET generic\ncycl\303\251s\n" &&
	refused ": line 2: " "event name .* holds a byte that is not ASCII (column 5)" &&
	group "EVENTSET generic\ncyc les\n" &&
	refused ": line 2: " "holds a space (column 4)"
'

test_expect_success 'an event listed twice (also under two of perf'"'"'s names): refused, as -e refuses it' '
	group "EVENTSET generic\ncycles\ninstructions\ncycles\n" &&
	refused ": line 4: event '"'cycles'"' is listed twice in EVENTSET '"'generic'"' (first on line 2): list it once" "" &&
	group "EVENTSET generic\npage-faults\nfaults\n" &&
	refused ": line 3: events '"'page-faults'"' (line 2) and '"'faults'"' of EVENTSET '"'generic'"' are the same event" ""
'

test_expect_success 'metric expressions that give none: $99, $1 +, 0x10, 1e999, an unknown name' '
	group "${HEAD}Ratio | %% | \$99 / \$1\n" &&
	refused ": line 7: metric '"'Ratio'"': '"'\\\$99'"' (column 1): the set has 3 events (\\\$1 to \\\$3)" "" &&
	group "${HEAD}Ratio | %% | \$1 +\n" &&
	refused ": line 7: metric '"'Ratio'"': an operand is missing at the end" "" &&
	group "${HEAD}Ratio | %% | 0x10 * \$1\n" &&
	refused ": line 7: metric '"'Ratio'"': '"'0x10'"' (column 1) is not a decimal number" "" &&
	group "${HEAD}Ratio | %% | \$1 * 1e999\n" &&
	refused ": line 7: metric '"'Ratio'"': the number '"'1e999'"' (column 6) is out of range of a double" "" &&
	group "${HEAD}Ratio | %% | nosuch / \$1\n" &&
	refused ": line 7: metric '"'Ratio'"': '"'nosuch'"' (column 1) is no event of the set" ""
'

test_expect_success 'a mistake in a block this machine does not take is found too' '
	group "EVENTSET generic\ncycles\nMETRICS\nC | x | \$1\nEVENTSET other\ncycles\nMETRICS\nC | x | \$2\n" &&
	refused ": line 8: metric '"'C'"': '"'\\\$2'"' (column 1): the set has 1 event" ""
'

test_expect_success 'a 600-character event name or expression: refused with its length, never cut' '
	long=$(printf "%0600d" 0 | tr 0 A) &&
	group "EVENTSET generic\n$long\n" &&
	refused ": line 2: the event name is 600 bytes long: at most 127" "" &&
	sum=$(for i in $(seq 150); do printf "\$1 + "; done) &&
	group "${HEAD}Sum | x | ${sum}1\n" &&
	refused ": line 7: the metric'"'"'s expression is 751 bytes long: at most 255" ""
'

test_expect_success 'a 5 GiB group file: refused at once by its size' '
	truncate -s 5G "$G/BAD.txt" &&
	refused " is larger than 256 KiB (the limit)" ""
'

test_expect_success 'a group file that is a FIFO: refused, no hang' '
	rm -f "$G/BAD.txt" && mkfifo "$G/BAD.txt" &&
	refused " is a FIFO" ""
'

test_done
