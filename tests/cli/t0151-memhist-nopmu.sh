# memhist without load-latency sampling (a VM without PEBS or IBS): exit 1 and one line naming
# what is missing and what would provide it. Usage errors exit 2.
. "$(dirname "$0")/lib.sh"
run 2 "$ARCHSCOPE" memhist
contains "$TMP/err" "give the program to run after --, or --from FILE"
run 2 "$ARCHSCOPE" memhist --from x -- true
contains "$TMP/err" "not both"
run 2 "$ARCHSCOPE" memhist --mode nosuch -- true
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
exit 0
