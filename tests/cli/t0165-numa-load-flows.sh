# numa load with two flows from node 0 (each alone, then together: the cross-talk table) when it
# has two CPUs, and Ctrl-C giving the figures so far with exit 130.
. "$(dirname "$0")/lib.sh"
cpus=$(ls /sys/devices/system/node/node0/ 2>/dev/null | grep -c '^cpu[0-9]')
test_expect_success 'two flows from node 0: cross-talk figures, disjoint CPUs, one link' '
	[ "$cpus" -ge 2 ] || skip "needs two CPUs on node 0 (it has $cpus)"
	run 0 "$ARCHSCOPE" numa load 0:0:1 0:0:1 --duration 0.5 --size 4MiB --json -q
	[ ! -s "$TMP/err" ] || fail "--quiet printed on stderr"
	python3 - "$TMP/out" <<-\PY || fail "two flows"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]
	def need(c, msg):
	    if not c:
	        sys.exit("FAIL: " + msg)
	need(all(c["alone_gbs"] > 0 and c["together_gbs"] > 0 for c in r["crosstalk"]), "cross-talk figures")
	need(r["flows"][0]["cpus"] != r["flows"][1]["cpus"], "disjoint CPUs")
	need(r["links"][0]["flows"] == 2, "one link of two flows")
	PY
'
test_expect_success 'Ctrl-C: exit 130 and the figures so far, marked incomplete' '
	"$ARCHSCOPE" numa load 0:0:1 --duration 30 --size 4MiB --json >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	sleep 2
	kill -INT $pid
	wait $pid
	rc=$?
	[ $rc -eq 130 ] || fail "interrupted load exited $rc, expected 130"
	json_get "d[\"results\"][\"incomplete\"] and d[\"results\"][\"flows\"][0][\"measured_gbs\"] > 0" | grep -qx True ||
		fail "partial result"
'
test_done
