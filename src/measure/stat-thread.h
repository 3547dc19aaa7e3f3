/* Per-thread counts for stat --per-thread: the program is traced (ptrace, seized before exec) so
 * each new thread or process gets its own counters when it is created and they are read at its
 * exit stop, when its count is final. Private to stat-run.c. */
#ifndef ARCHSCOPE_MEASURE_STAT_THREAD_H
#define ARCHSCOPE_MEASURE_STAT_THREAD_H

#include <sys/resource.h>
#include <sys/types.h>

#include "measure/stat.h"

/* /proc/PID/schedstat: time on a CPU (ns), time waiting for one (ns), timeslices; NaN when
 * unreadable. */
void measure_stat_read_schedstat(pid_t pid, double v[3]);
/* Seizes the gated child (before it execs) and opens the main thread's counters. */
int measure_stat_thread_seize(struct measure_stat *m, int pass, pid_t pid, struct as_error *err);
/* Runs the traced program to its end: threads counted at their exit, the main thread's schedstat
 * read at its exit stop (ss), the program reaped with its rusage. *status as from wait4. */
int measure_stat_thread_wait(struct measure_stat *m, int pass, int run, pid_t pid, int *status, struct rusage *ru, double ss[3]);

#endif
