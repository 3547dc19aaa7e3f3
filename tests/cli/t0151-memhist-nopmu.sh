# memhist without load-latency sampling (a VM without PEBS or IBS): exit 1 and one line naming
# what is missing and what would provide it. Usage errors exit 2.
. "$(dirname "$0")/lib.sh"
test_expect_success 'neither a program nor --from: exit 2' '
	run 2 "$ARCHSCOPE" memhist
	contains "$TMP/err" "give the program to run after --, or --from FILE"
'
test_expect_success '--from and a program: not both' '
	run 2 "$ARCHSCOPE" memhist --from x -- true
	contains "$TMP/err" "not both"
'
test_expect_success 'an unknown --mode: exit 2' '
	run 2 "$ARCHSCOPE" memhist --mode nosuch -- true
'
test_expect_success 'no load-latency sampling: exit 1, one line naming PEBS, IBS and what provides it' '
	if [ -e /sys/bus/event_source/devices/ibs_op ] || [ -e /sys/bus/event_source/devices/cpu/events/mem-loads ] ||
		[ -e /sys/bus/event_source/devices/cpu_core/events/mem-loads ]; then
		skip "needs a machine without PEBS load latency or IBS op (this one has one)"
	fi
	run 1 "$ARCHSCOPE" memhist -- true
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "more than one line: $(cat "$TMP/err")"
	contains "$TMP/err" "^archscope: error: memhist: no load-latency sampling here"
	contains "$TMP/err" "PEBS"
	contains "$TMP/err" "IBS"
	contains "$TMP/err" "provides it"
'
test_done
