# A program that cannot run is a clear error before any run, never a hang: /dev/zero, a
# directory, a data file, a FIFO (opening one to read its ELF header blocked stack for ever, even
# with the execute bit) and a script whose #! interpreter is missing.
. "$(dirname "$0")/lib.sh"
mkfifo "$TMP/fifo" || skip "mkfifo failed"
printf 'data\n' >"$TMP/data"
printf '#!/nonexistent/interp\necho hi\n' >"$TMP/script"
chmod +x "$TMP/script"
refused() { # refused PATH WORDS: exit 2 within 20 s, WORDS in the message
	run 2 timeout 20 "$ARCHSCOPE" stack -q -t 2 -r 1 -- "$1"
	contains "$TMP/err" "$2"
}
# the reason in stat's words (measure/exec.h), not "is not an executable file" alone
test_expect_success '/dev/zero' 'refused /dev/zero "cannot run '"'"'/dev/zero'"'"': not a regular file"'
test_expect_success 'a directory' 'refused "$TMP" "it is a directory"'
test_expect_success 'a data file' 'refused "$TMP/data" "it is not executable (no execute permission"'
test_expect_success 'a FIFO' 'refused "$TMP/fifo" "not a regular file"'
test_expect_success 'a FIFO with the execute bit' 'chmod +x "$TMP/fifo"; refused "$TMP/fifo" "'"'"'$TMP/fifo'"'"'"'
test_expect_success 'a script whose interpreter is missing' 'refused "$TMP/script" "/nonexistent/interp"'
test_done
