# Other load is measured, not blamed on the program (issue 36 item 7): with two busy loops of
# another program on the CPUs, a perfectly parallel program waits for a CPU; stack records the
# other processes' CPU time on these CPUs (/proc/stat, less the program's and its own), moves the
# run-queue wait they explain out of scheduling into foreign_load, says so in a note with the
# figure, and names the dominant delimiter and class of the program without it.
. "$(dirname "$0")/lib.sh"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
EX=$(dirname "$ARCHSCOPE")
[ -x "$EX/stack-parallel" ] || skip "needs the stack examples beside $ARCHSCOPE"
hogs=
trap 'for h in $hogs; do kill $h 2>/dev/null; done; wait 2>/dev/null; rm -rf "$TMP"' EXIT
for i in 1 2; do
	"$EX/stack-parallel" 1 100000000 >/dev/null &
	hogs="$hogs $!"
done
sleep 0.5
run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- "$EX/stack-parallel" "{T}" 3000
"$PY" - "$TMP/out" <<'PY' || fail "other load not reported (JSON in $TMP/out)"
import json, sys
r = json.load(open(sys.argv[1]))["results"]["runs"][0]
c, n = r["components"], r["threads"]
print({k: round(v, 3) for k, v in c.items()}, "foreign CPU %.3f s over %.3f s" % (r["foreign_cpu_s"], r["span_s"]),
      r["dominant"], r.get("class_program"), r["notes"])
assert abs(sum(c.values()) - n) < 1e-6, c
assert r["foreign_cpu_s"] > 0.3 * r["span_s"], r["foreign_cpu_s"]   # two busy loops took a good part of 2 CPUs
assert c["foreign_load"] > 0.05 * n, c
assert c["foreign_load"] >= c["scheduling"], c                      # most of the wait for a CPU is theirs
assert r["dominant"] not in ("scheduling", "foreign_load"), r["dominant"]
assert "class_program" in r
assert any("other processes ran" in x and "CPU-s" in x for x in r["notes"]), r["notes"]
PY
exit 0
