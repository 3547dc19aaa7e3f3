# The parse cache of model: a second run on the same kernel text gives the same output without
# libclang; a damaged or stale entry is a miss, never a wrong answer; 'off' writes nothing; a
# missing libclang is a clear error when the kernel is not cached.
. "$(dirname "$0")/lib.sh"
require LIBCLANG
SNB="$ROOT/tests/fixtures/machines/kerncraft-snb-e5-2680.yml"
K="$TMP/jacobi.c"
cp "$ROOT/kernels/jacobi-2d-5pt.c" "$K"
args=(model "$K" -m "$SNB" -D N 2000 -D M 1000 -p LC -p ECMData)
run 0 "$ARCHSCOPE" "${args[@]}"
cp "$TMP/out" "$TMP/cold"
test_expect_success 'the first run writes one cache entry' '
	n=$(find "$TMP/cache/kernels" -name "*.bin" | wc -l)
	[ "$n" -eq 1 ] || fail "expected one cache entry, found $n"
'
# A hit needs no libclang at all.
test_expect_success 'a hit needs no libclang and gives the same output' '
	ARCHSCOPE_LIBCLANG=/nonexistent/libclang.so run 0 "$ARCHSCOPE" "${args[@]}"
	cmp -s "$TMP/out" "$TMP/cold" || fail "cached run differs from the parsed one"
'
# A changed kernel text is a different entry: the wrong answer never comes from the cache.
test_expect_success 'a changed kernel text is a different entry, never the old answer' '
	sed "s/) \* s;/) * s + a[j][i];/" "$K" >"$TMP/k2" && mv "$TMP/k2" "$K"
	ARCHSCOPE_LIBCLANG=/nonexistent/libclang.so run 1 "$ARCHSCOPE" "${args[@]}"
	contains "$TMP/err" "cannot load libclang '\''/nonexistent/libclang.so'\''"
	run 0 "$ARCHSCOPE" "${args[@]}"
	cmp -s "$TMP/out" "$TMP/cold" && fail "changed kernel gave the old output"
	contains "$TMP/out" "^ *a  *8  *read  *\\[N\\*j + i\\]"
'
# Damaged entries (flipped byte, truncated, empty) are misses: libclang parses again.
test_expect_success 'damaged entries (flipped byte, truncated, empty) are misses' '
	cp "$ROOT/kernels/jacobi-2d-5pt.c" "$K"
	for damage in flip truncate empty; do
		for f in "$TMP"/cache/kernels/*.bin; do
			case $damage in
			flip) printf "\377" | dd of="$f" bs=1 seek=200 conv=notrunc status=none ;;
			truncate) truncate -s 1000 "$f" ;;
			empty) : >"$f" ;;
			esac
		done
		ARCHSCOPE_LIBCLANG=/nonexistent/libclang.so run 1 "$ARCHSCOPE" "${args[@]}"
		run 0 "$ARCHSCOPE" "${args[@]}"
		cmp -s "$TMP/out" "$TMP/cold" || fail "output after a $damage entry differs"
	done
'
# off: nothing is written
test_expect_success 'ARCHSCOPE_CACHE_DIR=off writes nothing' '
	rm -rf "$TMP/cache"
	ARCHSCOPE_CACHE_DIR=off run 0 "$ARCHSCOPE" "${args[@]}"
	[ ! -e "$TMP/cache" ] || fail "ARCHSCOPE_CACHE_DIR=off wrote a cache"
'
# an unwritable cache directory is not an error
test_expect_success 'an unwritable cache directory is not an error' '
	ARCHSCOPE_CACHE_DIR=/proc/archscope-cache run 0 "$ARCHSCOPE" "${args[@]}"
	cmp -s "$TMP/out" "$TMP/cold" || fail "output with an unwritable cache differs"
'
test_done
