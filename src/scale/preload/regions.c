/* The calling thread's waits so far, for the marker library (src/measure/marker/) of `stack
 * --regions`: it reads them at each region's start and stop and so gives each region the waits
 * inside it. Found by name (dlsym), so neither library needs the other. */
#include "scale/preload/preload.h"

static const char *const prim_names[PRIM_COUNT] = { SCALE_PRIMS(SCALE_X_NAME) };

__attribute__((visibility("default"))) int archscope_stack_waits(unsigned long long *ns, int cap, const char **names);

/* Fills ns[i] (i < cap) with the calling thread's time waited in primitive i so far (ns of
 * CLOCK_MONOTONIC; waits still in progress not yet), names[i] with its name (either array may be
 * NULL); returns how many primitives there are. All 0 where the library is off. */
__attribute__((visibility("default"))) int archscope_stack_waits(unsigned long long *ns, int cap, const char **names)
{
	struct preload_thread *t = ns ? (preload_me ? preload_me : preload_self()) : NULL;
	double per_tick = t ? preload_ns_per_tick() : 0;
	for (int i = 0; i < PRIM_COUNT && i < cap; i++) {
		if (names)
			names[i] = prim_names[i];
		if (ns)
			ns[i] = t ? (unsigned long long)((double)t->wait_ticks[i] * per_tick) : 0;
	}
	return PRIM_COUNT;
}
