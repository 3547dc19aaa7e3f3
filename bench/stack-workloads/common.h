/* Shared by the workloads of bench/stack-accept.sh: thread start/join and a compute loop. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
static int T;
static volatile double sink;
static double spin_work(long n) { double x = 1.0; for (long i = 0; i < n; i++) x = x * 1.0000001 + 1e-9; return x; }
static void run_threads(void *(*fn)(void *)) {
	pthread_t th[256];
	for (long i = 0; i < T; i++) pthread_create(&th[i], NULL, fn, (void *)i);
	for (long i = 0; i < T; i++) pthread_join(th[i], NULL);
}
