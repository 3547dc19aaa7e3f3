# topology agrees with sysfs: every data or unified cache sysfs lists for cpu0 appears with the same
# level and size, and at least one is compared (no cache directories: skip, needs SYSFS_CACHES).
. "$(dirname "$0")/lib.sh"
require SYSFS_CACHES
run 0 "$ARCHSCOPE" topology --json
cp "$TMP/out" "$TMP/topology.json"
checked=0
for idx in /sys/devices/system/cpu/cpu0/cache/index*; do
	[ -r "$idx/size" ] && [ -r "$idx/type" ] && [ -r "$idx/level" ] || continue
	type=$(cat "$idx/type"); level=$(cat "$idx/level"); size=$(cat "$idx/size")
	[ "$type" = Instruction ] && continue
	test_expect_success "sysfs ${idx##*/}: L$level $type $size is in topology" '
		case $size in *K) bytes=$((${size%K} * 1024)) ;; *M) bytes=$((${size%M} * 1048576)) ;; *) bytes=$size ;; esac
		cp "$TMP/topology.json" "$TMP/out"
		found=$(json_get "any(c[\"level\"]==$level and c[\"size_bytes\"]==$bytes for c in d[\"results\"][\"caches\"])")
		[ "$found" = True ] || fail "sysfs L$level $size ($bytes B) not in topology"
	'
	checked=$((checked + 1))
done
[ "$checked" -gt 0 ] || fail "SYSFS_CACHES held but no cache of cpu0 was compared"
test_done
