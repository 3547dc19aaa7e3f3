/* The cache-line probe (BlackjackBench §3.1.1): the curve of pair latency against the distance D
 * between the two accesses of a pair. */
#ifndef ARCHSCOPE_PROBE_LINE_H
#define ARCHSCOPE_PROBE_LINE_H

#include "probe/memory.h"

/* Average latency of access pairs D bytes apart at random places, D = 16..512 B. */
int probe_line_run(const struct probe_opts *o, struct probe_curve *out, struct as_error *err);

#endif
