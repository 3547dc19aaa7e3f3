#!/bin/bash
# The kernel's PMUs in sysfs (power/, msr, uncore_*): events lists each one's events as perf names
# them (pmu/event/); stat counts them with sysfs's scale and unit, per task where the PMU allows it,
# system-wide (-a) on the CPUs of its cpumask where it has one (energy), and says so otherwise;
# bad terms are bad input. The energy cases need this machine's power PMU (POWER_PMU).
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 1
DEV=/sys/bus/event_source/devices
test_expect_success 'events lists every sysfs PMU that has events, each event as pmu/event/' '
	run 0 "$ARCHSCOPE" events --json
	want=$(for d in $DEV/*/events; do ls "$d" | grep -qv "\." && basename "$(dirname "$d")"; done | sort | paste -sd, -)
	got=$(json_get "\",\".join(sorted(x.strip() for x in d[\"results\"].get(\"sysfs_pmus\", \"\").split(\",\") if x.strip()))")
	[ "$got" = "$want" ] || fail "sysfs_pmus: got \"$got\", the kernel has \"$want\""
	for d in $DEV/*/events; do
		pmu=$(basename "$(dirname "$d")")
		for ev in $(ls "$d" | grep -v "\."); do
			n=$(json_get "sum(1 for e in d[\"results\"][\"events\"] if e[\"name\"] == \"$pmu/$ev/\" and e[\"kind\"] == \"sysfs\")")
			[ "$n" = 1 ] || fail "$pmu/$ev/ listed $n times"
		done
	done
	cp "$TMP/out" events.json
	run 0 "$ARCHSCOPE" machine schema --check events.json events
'
test_expect_success 'stat counts a per-task sysfs event (msr/tsc/) on the program' '
	[ -f $DEV/msr/events/tsc ] && [ ! -s $DEV/msr/cpumask ] || skip "no per-task msr/tsc/ here"
	run 0 "$ARCHSCOPE" stat -q -r 2 -e msr/tsc/,msr/event=0x00/ -o s.json -- sleep 0.05
	e="[e for e in d[\"results\"][\"events\"] if e[\"name\"] == \"msr/tsc/\"][0]"
	[ "$(json_get "$e[\"mean\"] > 0 and $e[\"unit\"] == \"events\"" s.json)" = True ] ||
		fail "msr/tsc/ did not count: $(json_get "$e" s.json)"
	[ "$(json_get "[e for e in d[\"results\"][\"events\"] if e[\"name\"] == \"msr/event=0x00/\"][0][\"n\"]" s.json)" = 2 ] ||
		fail "msr/event=0x00/ (the same counter by its terms) not counted twice"
'
test_expect_success 'bad terms are bad input (exit 2, the reason named); an absent PMU is not counted' '
	run 2 "$ARCHSCOPE" stat -r 1 -e "page-faults,msr/event=zz/" -- touch ran
	contains "$TMP/err" "is not a number"
	[ ! -e ran ] || fail "the program ran with a bad event"
	run 2 "$ARCHSCOPE" stat -r 1 -e "msr/colour=1/" -- true
	contains "$TMP/err" "no format term .colour."
	run 0 "$ARCHSCOPE" stat -r 1 -e "page-faults,nopmu/x/" -- true
	contains "$TMP/err" "the kernel offers no PMU .nopmu."
	run 0 "$ARCHSCOPE" stat -r 1 -e "../../x/" -- true
	contains "$TMP/err" "is not a PMU name"
'
test_expect_success POWER_PMU 'an energy event of one program: not counted, it needs -a' '
	ev=$(ls $DEV/power/events | grep -v "\." | head -n 1)
	run 0 "$ARCHSCOPE" stat -r 1 -e "power/$ev/" -- true
	contains "$TMP/err" "counts whole CPUs"
	contains "$TMP/err" "stat -a"
'
test_expect_success POWER_PMU,ROOT 'stat -a opens every power/ event: Joules, and Watts or "reads 0 throughout"' '
	evs=$(ls $DEV/power/events | grep -v "\." | sed "s|.*|power/&/|" | paste -sd, -)
	run 0 "$ARCHSCOPE" stat -q -a -e "$evs" -o s.json -- sleep 0.5
	cp s.json "$TMP/out"
	for ev in ${evs//,/ }; do
		e="[e for e in d[\"results\"][\"events\"] if e[\"name\"] == \"$ev\"][0]"
		[ "$(json_get "$e[\"available\"] and $e[\"n\"] == 1")" = True ] || fail "$ev not counted: $(json_get "$e")"
		unit=$(cat "$DEV/power/events/$(basename "$ev").unit" 2>/dev/null)
		[ -z "$unit" ] || [ "$(json_get "$e[\"unit\"]")" = "$unit" ] || fail "$ev: unit $(json_get "$e[\"unit\"]"), sysfs says $unit"
		[ "$(json_get "$e[\"mean\"] >= 0 and ($e[\"zero\"] or $e[\"rate\"][\"unit\"] == \"W\")")" = True ] ||
			fail "$ev: neither counted with a rate in W nor flagged zero: $(json_get "$e")"
	done
	run 0 "$ARCHSCOPE" stat -a -e "$evs" -- sleep 0.2
	grep -E "power/.* (W|reads 0 throughout)" "$TMP/err" >/dev/null || fail "the text shows neither Watts nor a zero note"
'
test_done
