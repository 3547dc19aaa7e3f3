/* A program whose marked regions have known calls and known CPU time ratios, for `archscope stat
 * --regions` (tests/cli/t0640): in each of THREADS threads (default 2), "outer" once around
 * "short" 10 times (10 ms of the thread's CPU each) and "long" 5 times (40 ms each, so "long" has
 * twice the CPU time of "short"), then "sleep" 4 times (25 ms asleep each, no CPU).
 * `known names NAME...` marks each NAME once around nothing, then ends a region never begun;
 * `known hold` marks "done" once, then begins "hold", prints "ready" and waits for a signal. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "archscope-marker.h"

static double thread_cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static _Thread_local volatile unsigned long sink; /* per thread: no race between them */

/* Spins until this thread has run s seconds on a CPU (not wall time: the machine may be loaded). */
static void spin_cpu(double s)
{
	double end = thread_cpu_s() + s;
	while (thread_cpu_s() < end)
		for (int i = 0; i < 1000; i++)
			sink += (unsigned long)i;
}

static void *work(void *arg)
{
	(void)arg;
	ARCHSCOPE_REGION_BEGIN("outer");
	for (int i = 0; i < 10; i++) {
		ARCHSCOPE_REGION_BEGIN("short");
		spin_cpu(0.010);
		ARCHSCOPE_REGION_END("short");
	}
	for (int i = 0; i < 5; i++) {
		ARCHSCOPE_REGION_BEGIN("long");
		spin_cpu(0.040);
		ARCHSCOPE_REGION_END("long");
	}
	ARCHSCOPE_REGION_END("outer");
	for (int i = 0; i < 4; i++) {
		struct timespec ts = { 0, 25000000 };
		ARCHSCOPE_REGION_BEGIN("sleep");
		nanosleep(&ts, NULL);
		ARCHSCOPE_REGION_END("sleep");
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "names") == 0) {
		for (int i = 2; i < argc; i++) {
			ARCHSCOPE_REGION_BEGIN(argv[i]);
			ARCHSCOPE_REGION_END(argv[i]);
		}
		(void)ARCHSCOPE_REGION_END("never begun"); /* refused: counted as unmatched */
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "hold") == 0) {
		ARCHSCOPE_REGION_BEGIN("done");
		ARCHSCOPE_REGION_END("done");
		ARCHSCOPE_REGION_BEGIN("hold");
		puts("ready");
		fflush(stdout);
		for (;;)
			pause();
	}
	int n = argc > 1 ? atoi(argv[1]) : 2;
	if (n < 1 || n > 64)
		return 2;
	pthread_t t[64];
	for (int i = 1; i < n; i++)
		if (pthread_create(&t[i], NULL, work, NULL) != 0)
			return 1;
	work(NULL);
	for (int i = 1; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
