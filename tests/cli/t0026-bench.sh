# bench: a small run gives positive bandwidths with min <= median <= max, write-allocate traffic
# above the application's for copy and equal for the non-temporal copy; bad input exits 2.
. "$(dirname "$0")/lib.sh"
test_expect_success 'copy: positive bandwidths in order, write-allocate traffic 3/2 of the application'\''s, staggered streams' '
	run 0 "$ARCHSCOPE" bench copy -s 64KiB --reps 3 --min-time 0.01 --json
	python3 - "$TMP/out" <<-\PY || fail "bench copy answers"
	import json, sys
	r = json.load(open(sys.argv[1]))["results"]
	x = r["runs"][0]
	g, w = x["gbs"], x["gbs_real"]
	assert 0 < g["min"] <= g["median"] <= g["max"], g
	assert abs(w["median"] / g["median"] - 24 / 16) < 1e-6, (w, g)   # copy: 16 B/it, 24 with write-allocate
	assert x["size_bytes"] <= 65536 and x["size_bytes"] > 60000, x["size_bytes"]
	assert x["cy_per_cl"]["median"] > 0 and x["threads"] == 1
	assert "core cycles" in r["cycles"]
	assert r["stream_offset_bytes"] == 256, r["stream_offset_bytes"]
	PY
'
test_expect_success '--offset 0 runs unstaggered streams' '
	run 0 "$ARCHSCOPE" bench triad -s 64KiB --reps 2 --min-time 0.01 --offset 0 --json
	json_get "d[\"results\"][\"stream_offset_bytes\"]" | grep -qx 0 || fail "--offset 0 should run unstaggered streams"
'
test_expect_success '--offset 100: not a multiple of 64' '
	run 2 "$ARCHSCOPE" bench triad -s 64KiB --offset 100
	grep -q "multiple of 64" "$TMP/err" || fail "--offset 100 message"
'
test_expect_success 'the non-temporal copy moves no write-allocate traffic' '
	"$ARCHSCOPE" bench --list --json >"$TMP/list.json" 2>/dev/null
	variant=$(json_get "next((k[\"variant\"] for k in d[\"results\"][\"kernels\"] if k[\"kernel\"] == \"copy\" and k[\"nontemporal\"] and k[\"supported\"]), \"\")" "$TMP/list.json" 2>/dev/null)
	[ -n "$variant" ] || skip "no supported non-temporal copy variant here"
	run 0 "$ARCHSCOPE" bench copy --variant "$variant" -s 1MiB --reps 2 --min-time 0.01 --json
	json_get "d[\"results\"][\"runs\"][0][\"gbs_real\"][\"median\"] == d[\"results\"][\"runs\"][0][\"gbs\"][\"median\"]" | grep -qx True ||
		fail "non-temporal copy should move no write-allocate traffic"
'
test_expect_success 'sum: GFLOP/s in the text' '
	run 0 "$ARCHSCOPE" bench sum -s 32KiB -t 1 --reps 2 --min-time 0.01
	contains "$TMP/out" "GFLOP/s"
'
test_expect_success 'an unknown kernel' '
	run 2 "$ARCHSCOPE" bench nosuch -s 1MiB
	grep -q "unknown kernel '\''nosuch'\''" "$TMP/err" || fail "unknown kernel message"
'
test_expect_success 'a size that does not fit' '
	run 2 "$ARCHSCOPE" bench copy -s 100TB
	grep -q "does not fit" "$TMP/err" || fail "too-large size message"
'
test_expect_success 'more threads than CPUs' '
	n=$(python3 -c "import os; print(len(os.sched_getaffinity(0)) + 1)")
	run 2 "$ARCHSCOPE" bench copy -s 1MiB -t "$n"
	grep -q "oversubscribe" "$TMP/err" || fail "too many threads message"
'
test_expect_success 'bad CPUs, no size, an unknown variant, a size that is not one' '
	run 2 "$ARCHSCOPE" bench copy -s 1MiB --cpus 4095
	run 2 "$ARCHSCOPE" bench copy
	run 2 "$ARCHSCOPE" bench copy -s 1MiB --variant avx9000
	run 2 "$ARCHSCOPE" bench copy -s banana
'
test_done
