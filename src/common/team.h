/* A team of pinned threads that start their work together on a barrier, as the streaming
 * benchmarks and the multi-thread probes need. The team is made for one run and joined after it. */
#ifndef ARCHSCOPE_COMMON_TEAM_H
#define ARCHSCOPE_COMMON_TEAM_H

#include <pthread.h>

#include "common/cpuset.h"
#include "common/error.h"

struct team;

/* Work run by each member after pinning; tid is 0..n-1, cpu the CPU it is pinned to.
 * team_barrier() may be called inside it to synchronise all members again. */
typedef void (*team_fn)(struct team *team, int tid, int cpu, void *arg);

/* Starts one thread per CPU in cpus (a CPU may appear more than once to oversubscribe; pin=0
 * leaves threads unpinned), runs fn in each once all are pinned, and joins them. */
int team_run(const struct as_cpulist *cpus, int pin, team_fn fn, void *arg, struct as_error *err);

/* All members wait here until every member has arrived. */
void team_barrier(struct team *team);

int team_size(const struct team *team);

#endif
