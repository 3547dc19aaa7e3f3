/* whatif's known answer for a real speedup: the main thread (the critical path) runs, in chunks,
 * site_work's line (60 % of its work at --site-work 1) and rest_work's line (40 %); a side thread
 * runs side_work's line, 30 % of the main thread's work, beside it (off the critical path). Making
 * site_work's line 20 % faster in the source (--site-work 0.8) makes the program 0.2 x 0.6 = 12 %
 * faster; whatif on the --site-work 1 program at line speedup 0.2 should say the same.
 * Usage: faster [--site-work F] [SCALE] (F in (0, 4], default 1; SCALE x 250 million dependent
 * additions on the main thread at F = 1, about 0.25 s on a 4 GHz core; default 1). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNKS 200 /* the site and the rest alternate in this many chunks, so a sample sees both */

static volatile double sink;

/* seed: the chunk, so that no call is the same as another (the compiler would do one for all) */
__attribute__((noinline)) static double site_work(long n, double seed)
{
	double x = seed;
	for (long i = 0; i < n; i++) x += (double)i * 1e-9; /* the site's line */
	return x;
}

__attribute__((noinline)) static double rest_work(long n, double seed)
{
	double x = seed;
	for (long i = 0; i < n; i++) x += (double)i * 2e-9; /* the rest's line */
	return x;
}

__attribute__((noinline)) static double side_work(long n, double seed)
{
	double x = seed;
	for (long i = 0; i < n; i++) x += (double)i * 3e-9; /* the side thread's line */
	return x;
}

static void *side_thread(void *arg)
{
	long n = *(long *)arg;
	double x = 0;
	for (int c = 0; c < CHUNKS; c++)
		x += side_work(n / CHUNKS, c);
	sink += x;
	return NULL;
}

static int usage(void)
{
	fprintf(stderr, "usage: faster [--site-work F] [SCALE]   (0 < F <= 4, SCALE > 0)\n");
	return 2;
}

int main(int argc, char **argv)
{
	double f = 1, scale = 1;
	int i = 1;
	if (i + 1 < argc && !strcmp(argv[i], "--site-work")) {
		char *end;
		f = strtod(argv[i + 1], &end);
		if (*end || !(f > 0 && f <= 4))
			return usage();
		i += 2;
	}
	if (i < argc) {
		char *end;
		scale = strtod(argv[i++], &end);
		if (*end || !(scale > 0 && scale <= 1000))
			return usage();
	}
	if (i < argc)
		return usage();
	double total = scale * 2.5e8;
	long site = (long)(0.6 * f * total / CHUNKS), rest = (long)(0.4 * total / CHUNKS);
	long side = (long)(0.3 * total);
	if (rest < 1)
		return usage();
	pthread_t t;
	if (pthread_create(&t, NULL, side_thread, &side))
		return 1;
	double x = 0;
	for (int c = 0; c < CHUNKS; c++) {
		x += site_work(site, c);
		x += rest_work(rest, c);
	}
	pthread_join(t, NULL);
	printf("%g\n", x + sink);
	return 0;
}
