# Call sites in a module the program unloads before it exits (issue 49 item 3.2; Open MPI's plugins
# are dlclosed at MPI_Finalize): the preload library keeps the executable segments dlclose removed
# and lists them in the record, so the sites still resolve. A program dlopens a library built
# here, whose threads wait at a barrier and are joined inside it, dlcloses it and exits: each site
# `stack --json` shows is in that library, as file:line (function) with debug information, and
# as libname+0xOFFSET from a stripped copy (never a bare address).
. "$(dirname "$0")/lib.sh"
command -v gcc >/dev/null || skip "needs gcc in PATH"
cat >"$TMP/plugin.c" <<'C'
#include <pthread.h>
#include <stdint.h>
static pthread_barrier_t barrier;
static long units, nthreads;
static volatile uint64_t sink;
static void *plugin_worker(void *arg)
{
	long id = (long)arg;
	uint64_t x = (uint64_t)id;
	for (int ph = 0; ph < 20; ph++) {
		long n = (ph % nthreads == id ? 4 : 1) * units / 20 / (nthreads + 3);
		for (long u = 0; u < n * 1000; u++)
			x = x * 6364136223846793005u + 1442695040888963407u;
		if (pthread_barrier_wait(&barrier) == PTHREAD_BARRIER_SERIAL_THREAD)
			sink += 1;
	}
	sink += x;
	return 0;
}
int plugin_run(long threads, long work)
{
	pthread_t th[64];
	nthreads = threads < 64 ? threads : 64;
	units = work;
	pthread_barrier_init(&barrier, 0, (unsigned)nthreads);
	for (long i = 0; i < nthreads; i++)
		pthread_create(&th[i], 0, plugin_worker, (void *)i);
	for (long i = 0; i < nthreads; i++)
		pthread_join(th[i], 0);
	pthread_barrier_destroy(&barrier);
	return (int)(sink & 1);
}
C
cat >"$TMP/host.c" <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	int (*run)(long, long) = (int (*)(long, long))dlsym(h, "plugin_run");
	int r = run ? run(atol(argv[2]), atol(argv[3])) : 1;
	if (dlclose(h) != 0)
		return 1;
	printf("plugin ran, result %d, unloaded\n", r);
	return 0;
}
C
(cd "$TMP" && gcc -O2 -g -fPIC -shared -pthread -o libplugin.so plugin.c &&
	gcc -O2 -g -fPIC -shared -pthread -o libstripped.so plugin.c && strip libstripped.so &&
	gcc -O2 -g -pthread -o host host.c -ldl) 2>"$TMP/cc.err" || skip "gcc does not build the test's program: $(head -3 "$TMP/cc.err")"
sites() { json_get "'\\n'.join(s['where'] for s in d['results']['runs'][0]['sites'])" >"$TMP/sites"; cat "$TMP/sites"; }

test_expect_success 'the library is unloaded before the program exits' '
	LD_DEBUG=files "$TMP/host" "$TMP/libplugin.so" 2 50 2>"$TMP/ld" >/dev/null || fail "host fails"
	grep -q "calling fini: .*libplugin.so" "$TMP/ld" || fail "libplugin.so not finalized at dlclose"
	grep -n "calling fini" "$TMP/ld" | head -3
	grep "calling fini" "$TMP/ld" | head -1 | grep -q libplugin.so || fail "libplugin.so is not the first module finalized"
'
test_expect_success 'its sites are file:line (function) in the library' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- "$TMP/host" "$TMP/libplugin.so" "{T}" 3000
	sites
	[ -s "$TMP/sites" ] || fail "no site shown"
	while IFS= read -r w; do
		case $w in
		"plugin.c:"*" (plugin_worker)" | "plugin.c:"*" (plugin_run)") ;;
		*) fail "not a file:line of plugin.c: $w" ;;
		esac
	done <"$TMP/sites"
'
test_expect_success 'without debug information they are lib+0xOFFSET, not bare addresses' '
	run 0 "$ARCHSCOPE" stack -q -t 2 -r 1 --json -- "$TMP/host" "$TMP/libstripped.so" "{T}" 3000
	sites
	[ -s "$TMP/sites" ] || fail "no site shown"
	while IFS= read -r w; do
		case $w in
		"libstripped.so+0x"* | "plugin_"*" (libstripped.so, no line information)") ;;
		*) fail "not a site in libstripped.so: $w" ;;
		esac
	done <"$TMP/sites"
'
test_done
