/* Counter bracketing: counts events around each timed repetition of a program that stops itself
 * (raise(SIGSTOP)) before and after every repetition, through the hooks of common/spawn.h (stops
 * 2r and 2r+1). The counters open on the program's first stop, count from an even stop to the next
 * odd one, and the repetition with the fewest of the first event is kept, as a benchmark keeps
 * its fastest repetition. Returns numbers and, when nothing could be counted, the reason; it never
 * prints. */
#ifndef ARCHSCOPE_MEASURE_BRACKET_H
#define ARCHSCOPE_MEASURE_BRACKET_H

#include "common/spawn.h"
#include "measure/counters.h"

struct measure_bracket {
	/* the result */
	int n;
	char name[COUNTERS_MAX][64];   /* as asked for; the first one picks the repetition */
	char fq[COUNTERS_MAX][192];    /* as libpfm4 qualified them (once the counters opened) */
	int counted;                   /* repetitions counted */
	double best[COUNTERS_MAX];     /* every event over the counted repetition with the fewest of the first */
	int failed;                    /* counting stopped: reason says why (no PMU, perf_event_paranoid, ...) */
	char reason[512];              /* after release, why nothing was counted ("" when counted) */
	/* private */
	const char *names[COUNTERS_MAX];
	struct counter_set set;
	int open;
};

/* Prepares to count the events (1 to COUNTERS_MAX names, by libpfm4 name); opens nothing yet.
 * -E2BIG for too many. */
int measure_bracket_init(struct measure_bracket *b, const char *const names[], int n, struct as_error *err);

/* The hooks to give spawn_run_hooked; b must outlive the run. */
struct spawn_hooks measure_bracket_hooks(struct measure_bracket *b);

/* Closes the counters; when no repetition was counted, reason says why. */
void measure_bracket_release(struct measure_bracket *b);

#endif
