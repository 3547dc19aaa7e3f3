#!/bin/bash
# An event name nothing knows: a typo (exit 2, before the program runs) where libpfm4 knows this
# CPU's PMUs (forced here, so the test holds on any machine); where it does not (a VM hiding its
# PMU) the event may be this CPU's, and it is reported as not counted with its reason listed below
# the table, as the table's note says.
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 1
test_expect_success 'a typo among the events: exit 2 before the program runs' '
	LIBPFM_FORCE_PMU=icx run 2 "$ARCHSCOPE" stat -r 1 -e "page-faults,no_such_evnt" -- touch ran
	contains "$TMP/err" "event '\''no_such_evnt'\'' is not known"
	[ ! -e ran ] || fail "the program ran although an event name is a typo"
'
test_expect_success 'an event of the forced PMU is accepted' '
	LIBPFM_FORCE_PMU=icx run 0 "$ARCHSCOPE" stat -q -r 1 -e "page-faults,inst_retired.any" -o s.json -- true
'
# a name libpfm4 does not know, on a machine whose PMU it may not know: not counted, reason listed
test_expect_success 'where libpfm4 lacks this PMU: not counted, with its reason' '
	! "$ARCHSCOPE" events "inst_retired*" 2>/dev/null | grep -q inst_retired ||
		skip "libpfm4 knows inst_retired on this machine"
	run 0 "$ARCHSCOPE" stat -r 1 -e "page-faults,inst_retired.any" -- true
	contains "$TMP/err" "not counted  inst_retired.any: "
'
test_done
