/* Coz's toy benchmark in spirit: each round two threads run independent loops, one twice as long
 * as the other, and the round ends when both have finished (a barrier; one COZ_PROGRESS per round).
 * The threads live for the whole run: Coz 0.2.2 found no experiment at all in threads created anew
 * each round of a few ms (an empty profile). Making
 * the long loop x faster makes the program faster until it is as short as the other (program
 * speedup min(x, 1/2) of the round's time); making the short loop faster does nothing.
 * Build: cc -O1 -gdwarf-4 -pthread toy.c -o toy -ldl. Usage: toy [ROUNDS] [UNITS] (default 200 rounds, 2000000). */
#include <coz.h>
#include <pthread.h>
#include <stdlib.h>

static volatile long sink_long, sink_short;
static long units = 2000000, rounds = 200;
static pthread_barrier_t round_end;

__attribute__((noinline)) static void *long_loop(void *arg)
{
	(void)arg;
	for (long r = 0; r < rounds; r++) {
		for (long i = 0; i < 2 * units; i++) sink_long = sink_long + i; /* the long loop's line */
		pthread_barrier_wait(&round_end);
	}
	return NULL;
}

__attribute__((noinline)) static void *short_loop(void *arg)
{
	(void)arg;
	for (long r = 0; r < rounds; r++) {
		for (long i = 0; i < units; i++) sink_short = sink_short + i; /* the short loop's line */
		pthread_barrier_wait(&round_end);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		rounds = atol(argv[1]);
	if (argc > 2)
		units = atol(argv[2]);
	if (rounds < 1 || units < 1)
		return 2;
	pthread_t a, b;
	pthread_barrier_init(&round_end, NULL, 3);
	if (pthread_create(&a, NULL, long_loop, NULL) || pthread_create(&b, NULL, short_loop, NULL))
		return 1;
	for (long r = 0; r < rounds; r++) {
		pthread_barrier_wait(&round_end);
		COZ_PROGRESS_NAMED("rounds");
	}
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
