/* whatif's known answer for threads: thread A runs crit_work (twice the work of thread B's
 * side_work) and main joins both, so A is the critical path. Making crit_work's line faster by s
 * makes the program faster by min(s, 1/2); making side_work's line faster changes nothing (its
 * curve is flat). Each loop is on one line, so a line is a site. Usage: two-threads [SCALE]
 * (SCALE x 150 million dependent additions for A, about 0.2 s; default 1). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

__attribute__((noinline)) static void crit_work(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++) x += (double)i * 1e-9; /* the critical line */
	sink += x;
}

__attribute__((noinline)) static void side_work(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++) x += (double)i * 2e-9; /* the side line */
	sink += x;
}

static void *crit_thread(void *arg)
{
	crit_work(*(long *)arg);
	return NULL;
}

static void *side_thread(void *arg)
{
	side_work(*(long *)arg / 2);
	return NULL;
}

int main(int argc, char **argv)
{
	double scale = argc > 1 ? atof(argv[1]) : 1;
	long n = (long)(scale * 1.5e8);
	if (n < 1) {
		fprintf(stderr, "usage: two-threads [SCALE > 0]\n");
		return 2;
	}
	pthread_t a, b;
	if (pthread_create(&a, NULL, crit_thread, &n) || pthread_create(&b, NULL, side_thread, &n))
		return 1;
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%g\n", sink);
	return 0;
}
