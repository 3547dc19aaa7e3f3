# stat --all works on every PMU libpfm4 names (issue 35): on this CPU, and under LIBPFM_FORCE_PMU for
# the CPUs whose long event names once failed ("event name 'amd64_fam19h_zen4::...' is too long").
# Without counters (a VM, another CPU's PMU) it says why and still counts the software events.
# u-measure-stat forces every PMU libpfm4 knows and plans --all on each; here the whole command.
. "$(dirname "$0")/lib.sh"
cat >"$TMP/check.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["results"]
pmu = sys.argv[2]
ev = d["events"]
sw = [e for e in ev if e["source"] == "perf software"]
assert len(sw) >= 8 and all(e["n"] == 1 for e in sw), [(e["name"], e["n"]) for e in sw]
if pmu != "-":
    mine = [e for e in ev if e["name"].startswith(pmu + "::")]
    assert len(mine) >= 20, (pmu, len(mine))
    print(max(len(e["name"]) for e in mine))
for e in ev:
    # counted, or not counted with the reason: never a silent 0
    assert e["n"] >= 1 or (e["reason"] and all(v is None for v in e["values"])), e["name"]
if any(not e["available"] and e["source"] != "perf software" for e in ev if e["source"].startswith("perf")):
    assert d["hardware_reason"], "hardware events not counted and no reason given"
PY
test_expect_success '--all on this CPU: every event counted or not counted with the reason' '
	run 0 "$ARCHSCOPE" stat -q -r 1 --all --json -o "$TMP/here.json" -- true
	python3 "$TMP/check.py" "$TMP/here.json" - || fail "--all on this CPU"
'
PMUS="amd64_fam19h_zen4 amd64_fam1ah_zen5 amd64_fam17h_zen2 icx spr skx"
for pmu in $PMUS; do
	test_expect_success "--all under LIBPFM_FORCE_PMU=$pmu: JSON and text" '
		# a PMU this libpfm4 does not know is not forced (4.13 has no Zen 5): say so and go on
		"$ARCHSCOPE" events --pmu "$pmu" >/dev/null 2>&1 || skip "libpfm4 here knows no PMU '\''$pmu'\''"
		LIBPFM_FORCE_PMU=$pmu run 0 "$ARCHSCOPE" stat -q -r 1 --all --json -o "$TMP/$pmu.json" -- true
		longest=$(python3 "$TMP/check.py" "$TMP/$pmu.json" "$pmu") || fail "--all under LIBPFM_FORCE_PMU=$pmu"
		echo "# $pmu: longest event name $longest characters"
		# text too: the table and the reason, exit 0
		LIBPFM_FORCE_PMU=$pmu run 0 "$ARCHSCOPE" stat -q -r 1 --all -- true
		contains "$TMP/err" "task-clock"
	'
done
test_expect_success 'libpfm4 here knows at least 4 of the forced PMUs' '
	tried=0
	for pmu in $PMUS; do
		if "$ARCHSCOPE" events --pmu "$pmu" >/dev/null 2>&1; then
			tried=$((tried + 1))
		else
			echo "# libpfm4 here knows no PMU '\''$pmu'\''"
		fi
	done
	[ "$tried" -ge 4 ] || fail "only $tried of the forced PMUs were known to libpfm4"
'
test_done
