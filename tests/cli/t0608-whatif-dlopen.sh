# whatif places a site in a library the program loads after it starts (dlopen: numpy's OpenBLAS,
# Python's extension modules, plugins): the preload library maps the site when the process starts,
# when the module is not there yet, so it looks the module up again from later samples
# (/proc/self/maps). Before that, such a site was sampled in the profiling run and never in its
# own rounds: no delay, a curve of noise. A site with no sample in its rounds is said so.
. "$(dirname "$0")/lib.sh"
command -v gcc >/dev/null || skip "needs gcc in PATH"
cat >"$TMP/late.c" <<'C'
/* the work, in a library the host loads with dlopen after it starts */
volatile double late_sink;
__attribute__((noinline)) void late_work(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++) x += (double)i * 1e-9;
	late_sink += x;
}
C
cat >"$TMP/host.c" <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	void *h = dlopen(argv[1], RTLD_NOW);
	void (*work)(long) = h ? (void (*)(long))dlsym(h, "late_work") : NULL;
	if (!work) {
		fprintf(stderr, "host: %s\n", dlerror());
		return 1;
	}
	work(atol(argv[2]));
	return 0;
}
C
(cd "$TMP" && gcc -O2 -g -fPIC -shared -o liblate.so late.c && gcc -O2 -g -o host host.c -ldl) 2>"$TMP/cc.err" ||
	skip "gcc does not build the test's program: $(head -3 "$TMP/cc.err")"

test_expect_success 'a site in a dlopened library: its samples land in its own rounds, so delays were inserted' '
	run 0 "$ARCHSCOPE" whatif -q --json --by function --sites 1 --speedups 1 --rounds 2 -- "$TMP/host" "$TMP/liblate.so" 200000000 &&
	json_get "d[\"results\"][\"sites\"][0][\"site\"]" >"$TMP/site" &&
	contains "$TMP/site" "late_work (liblate.so)" &&
	test "$(json_get "int(d[\"results\"][\"sites\"][0][\"points\"][-1][\"site_samples\"] > 0)")" = 1 ||
		fail "no sample in late_work during its rounds: $(json_get "d[\"results\"][\"sites\"][0][\"points\"]")"
'
test_done
