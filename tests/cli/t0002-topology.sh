# topology agrees with the OS: CPU count, allowed set under taskset (the cache sizes of sysfs:
# t0290, which skips where sysfs lists none).
. "$(dirname "$0")/lib.sh"
test_expect_success 'the text names the caches and the allowed cpus' '
	run 0 "$ARCHSCOPE" topology
	contains "$TMP/out" "caches"
	contains "$TMP/out" "allowed cpus"
'
test_expect_success 'topology --json: valid JSON, its envelope, at least nproc threads' '
	run 0 "$ARCHSCOPE" topology --json
	python3 -m json.tool "$TMP/out" >/dev/null || fail "topology --json is not valid JSON"
	[ "$(json_get "d[\"command\"]")" = topology ] || fail "envelope command"
	threads=$(json_get "d[\"results\"][\"threads\"]")
	[ "$threads" -ge "$(nproc)" ] || fail "threads $threads < nproc $(nproc)"
'
# Text and JSON come from one renderer: the text says what the JSON holds.
test_expect_success 'the text says what the JSON holds (one renderer)' '
	run 0 "$ARCHSCOPE" topology --json
	threads=$(json_get "d[\"results\"][\"threads\"]")
	"$ARCHSCOPE" topology >"$TMP/txt" || fail "topology text"
	contains "$TMP/txt" "hardware threads *$threads ("
	contains "$TMP/txt" "cores *$(json_get "d[\"results\"][\"cores\"]")\$"
	nodes=$(json_get "len(d[\"results\"][\"numa_nodes\"])")
	[ "$(awk "/^numa nodes/{f=1;getline;next} f&&/^  *[0-9]/{n++} f&&/^\$/{f=0} END{print n+0}" "$TMP/txt")" = "$nodes" ] || fail "numa nodes: text and JSON disagree"
'
test_expect_success 'the allowed set follows taskset' '
	command -v taskset >/dev/null || skip "no taskset"
	run 0 "$ARCHSCOPE" topology --json
	last=$(json_get "d[\"results\"][\"allowed_cpus\"][-1]")
	taskset -c "$last" "$ARCHSCOPE" topology --json >"$TMP/out" || fail "taskset run"
	[ "$(json_get "d[\"results\"][\"allowed_cpus\"]")" = "[$last]" ] || fail "allowed under taskset: $(json_get "d[\"results\"][\"allowed_cpus\"]")"
	taskset -c "$last" "$ARCHSCOPE" topology >"$TMP/txt"
	contains "$TMP/txt" "allowed cpus *$last (1 of"
'
test_done
