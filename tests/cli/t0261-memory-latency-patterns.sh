# Memory latency named by its pattern (issue 35 item 11): `probe caches` reports the page-local
# chase (caches.memory_latency, the lines of each 4 KiB page one after another) and the fully
# random one (caches.memory_latency_random: every line of a large buffer on huge pages in one
# random cycle) beside each other, with text labels saying which; and `numa matrix` the same two
# patterns as latency_ns and latency_random_ns, with bench's kernel, working set and repetitions
# named. A random chase opens another DRAM page at every access and no prefetcher follows it: it is
# slower than the page-local one on any machine (3x on the Xeon guest here), which is asserted.
. "$(dirname "$0")/lib.sh"
# caches_latencies FILE, matrix_patterns FILE: the checks of the JSON of probe caches and of numa matrix
caches_latencies() {
	python3 - "$1" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["results"]["caches"]
pl, rnd = c["memory_latency"], c["memory_latency_random"]
assert pl["unit"] == rnd["unit"] == "ns", (pl, rnd)
assert "page-local" in pl["method"] and "fully random" in rnd["method"], (pl["method"], rnd["method"])
assert rnd["value"] is not None and rnd["value"] > 0, rnd
assert c["memory_latency_random_bytes"] >= 64 << 20, c["memory_latency_random_bytes"]
f = c["memory_latency_random_huge_fraction"]
assert f is None or 0 <= f <= 1, f
if pl["value"] is not None:
    assert rnd["value"] > pl["value"], (rnd["value"], pl["value"])
print(f"page-local {pl['value']} ns, random {rnd['value']:.1f} ns")
PY
}
matrix_patterns() {
	python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
n = len(r["nodes"])
for key in ("latency_ns", "latency_random_ns", "latency_random_median_ns"):
    assert len(r[key]) == n and all(v is None or v > 0 for row in r[key] for v in row), (key, r[key])
i = 0
lp, lr = r["latency_ns"][i][i], r["latency_random_ns"][i][i]
assert lr > lp, (lr, lp)                   # 1 GiB chases: memory in both patterns
assert r["kernel"].startswith("triad-") and r["write_allocate"] is True, r["kernel"]
assert r["reps"] == 3 and r["min_time_s"] == 0.05, (r["reps"], r["min_time_s"])   # --quick, as bench's
assert "bench's MEM working set" in r["bandwidth_size_from"], r["bandwidth_size_from"]
assert r["bandwidth_bytes"] >= min(512 << 20, r["latency_bytes"] // 2), r["bandwidth_bytes"]
assert r["line_bytes"] in (32, 64, 128, 256) and r["line_witnesses"] in (0, 1, 2), r["line_bytes"]
assert 0 <= r["bandwidth_huge_fraction"] <= 1, r["bandwidth_huge_fraction"]
print(f"numa: page-local {lp:.1f} ns, random {lr:.1f} ns, streams {r['bandwidth_bytes'] >> 20} MiB")
PY
}
test_expect_success 'probe caches --json: the page-local and the fully random latency, the random one slower' '
	run 0 "$ARCHSCOPE" probe caches --quick --json --seed 5
	caches_latencies "$TMP/out" || fail "probe caches: the two memory latencies"
'
test_expect_success 'probe caches, text: each latency labelled with its pattern' '
	run 0 "$ARCHSCOPE" probe caches --quick --seed 5
	contains "$TMP/out" "memory latency, page-local"
	contains "$TMP/out" "memory latency, random"
'
# numa matrix: both patterns, and the streams sized, repeated and paged as bench does it
test_expect_success 'numa matrix --json: both patterns, the streams sized, repeated and paged as bench does it' '
	run 0 "$ARCHSCOPE" numa matrix --quick --kernel triad --json
	matrix_patterns "$TMP/out" || fail "numa matrix: patterns and bench'\''s sizing"
'
test_done
