/* OpenMP through OMPT (OpenMP 5.0 tools interface), where the runtime offers it (LLVM libomp;
 * GCC's libgomp does not: gomp.c): barrier waits (sync_region_wait) are charged to "omp_barrier",
 * taskwait and taskgroup to "omp_taskwait", waits for locks and critical sections (mutex_acquire
 * to mutex_acquired) to "omp_lock", each at the call site the runtime reports, spin phase and
 * sleep alike (KMP_BLOCKTIME); a worker's implicit barrier at a region's end runs on until the
 * next region begins, and the part after the master left the region is "omp_idle" (the serial
 * part); a task run inside a wait is taken out of it. The few declarations needed are written
 * here with the values the OpenMP 5.0 specification fixes, so the library depends on libc alone. */
#include <stdint.h>
#include <stdlib.h>

#include "scale/preload/preload.h"

typedef union {
	uint64_t value;
	void *ptr;
} ompt_data_t;
typedef void (*ompt_callback_t)(void);
typedef void (*ompt_interface_fn_t)(void);
typedef ompt_interface_fn_t (*ompt_function_lookup_t)(const char *name);
typedef int (*ompt_set_callback_t)(int event, ompt_callback_t callback);
typedef struct {
	int (*initialize)(ompt_function_lookup_t lookup, int initial_device_num, ompt_data_t *tool_data);
	void (*finalize)(ompt_data_t *tool_data);
	ompt_data_t tool_data;
} ompt_start_tool_result_t;

enum {
	OMPT_CALLBACK_PARALLEL_BEGIN = 3,
	OMPT_CALLBACK_TASK_CREATE = 5,
	OMPT_CALLBACK_TASK_SCHEDULE = 6,
	OMPT_CALLBACK_IMPLICIT_TASK = 7,
	OMPT_CALLBACK_SYNC_REGION_WAIT = 16,
	OMPT_CALLBACK_MUTEX_ACQUIRE = 26,
	OMPT_CALLBACK_MUTEX_ACQUIRED = 27,
	OMPT_SCOPE_BEGIN = 1,
	OMPT_SCOPE_END = 2,
	OMPT_TASK_IMPLICIT = 2,
	OMPT_TASK_EXPLICIT = 4,
	/* ompt_sync_region_t */
	OMPT_SYNC_BARRIER = 1,
	OMPT_SYNC_BARRIER_IMPLICIT = 2,
	OMPT_SYNC_TASKWAIT = 5,
	OMPT_SYNC_TASKGROUP = 6,
	OMPT_SYNC_BARRIER_IMPLICIT_PARALLEL = 9,
};

/* A task's tool data holds this once task_create saw it is explicit. */
#define TASK_EXPLICIT_MARK 0x61726368u

/* The calling thread's index in its team (implicit_task): the master (0) leaves a region at its
 * end; a worker's implicit barrier runs on into the idle time before the next region (libomp 14:
 * its sync_region_wait ends only when the next region begins). */
static __thread int team_index;

static struct preload_thread *me(void)
{
	return preload_me ? preload_me : preload_self();
}

/* The region's call site in the program, kept in its tool data: an implicit barrier's own code
 * pointer is the runtime's (libomp: inside __kmp_invoke_microtask). */
static void on_parallel_begin(ompt_data_t *task, const void *frame, ompt_data_t *parallel, unsigned requested,
			      int flags, const void *codeptr)
{
	(void)task;
	(void)frame;
	(void)requested;
	(void)flags;
	if (parallel)
		parallel->value = (uint64_t)(uintptr_t)codeptr;
}

static void on_sync_wait(int kind, int endpoint, ompt_data_t *parallel, ompt_data_t *task, const void *codeptr)
{
	(void)task;
	if (endpoint == OMPT_SCOPE_BEGIN) {
		int prim = kind == OMPT_SYNC_TASKWAIT || kind == OMPT_SYNC_TASKGROUP ? PRIM_OMP_TASKWAIT : PRIM_OMP_BARRIER;
		int implicit = kind == OMPT_SYNC_BARRIER_IMPLICIT || kind == OMPT_SYNC_BARRIER_IMPLICIT_PARALLEL ||
			       kind == OMPT_SYNC_BARRIER;
		uintptr_t site = (uintptr_t)codeptr;
		if ((implicit || !site) && parallel && parallel->value)
			site = (uintptr_t)parallel->value;
		preload_rt_begin(me(), prim, site, implicit && team_index != 0);
	} else if (endpoint == OMPT_SCOPE_END) {
		preload_rt_end(preload_me);
	}
}

static void on_mutex_acquire(int kind, unsigned hint, unsigned impl, uint64_t wait_id, const void *codeptr)
{
	(void)kind;
	(void)hint;
	(void)impl;
	(void)wait_id;
	preload_rt_begin(me(), PRIM_OMP_LOCK, (uintptr_t)codeptr, 0);
}

static void on_mutex_acquired(int kind, uint64_t wait_id, const void *codeptr)
{
	(void)kind;
	(void)wait_id;
	(void)codeptr;
	preload_rt_end(preload_me);
}

static void on_implicit_task(int endpoint, ompt_data_t *parallel, ompt_data_t *task, unsigned n, unsigned index,
			     int flags)
{
	(void)parallel;
	(void)task;
	(void)n;
	if (!(flags & OMPT_TASK_IMPLICIT))
		return;
	if (endpoint == OMPT_SCOPE_BEGIN)
		team_index = (int)index;
	else if (endpoint == OMPT_SCOPE_END && index == 0)
		__atomic_store_n(&preload_region_end, preload_ticks(), __ATOMIC_RELEASE);
}

static void on_task_create(ompt_data_t *parent, const void *frame, ompt_data_t *task, int flags, int deps,
			   const void *codeptr)
{
	(void)parent;
	(void)frame;
	(void)deps;
	(void)codeptr;
	if (task && (flags & OMPT_TASK_EXPLICIT))
		task->value = TASK_EXPLICIT_MARK;
}

/* A task run inside a barrier or taskwait is work: the wait pauses while it runs. */
static void on_task_schedule(ompt_data_t *prior, int prior_status, ompt_data_t *next)
{
	(void)prior_status;
	struct preload_thread *t = preload_me;
	if (!t)
		return;
	if (prior && prior->value == TASK_EXPLICIT_MARK)
		preload_rt_task_leave(t);
	if (next && next->value == TASK_EXPLICIT_MARK)
		preload_rt_task_enter(t);
}

static int ompt_init(ompt_function_lookup_t lookup, int initial_device_num, ompt_data_t *tool_data)
{
	(void)initial_device_num;
	(void)tool_data;
	ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
	if (!set)
		return 0;
	set(OMPT_CALLBACK_PARALLEL_BEGIN, (ompt_callback_t)on_parallel_begin);
	set(OMPT_CALLBACK_SYNC_REGION_WAIT, (ompt_callback_t)on_sync_wait);
	set(OMPT_CALLBACK_MUTEX_ACQUIRE, (ompt_callback_t)on_mutex_acquire);
	set(OMPT_CALLBACK_MUTEX_ACQUIRED, (ompt_callback_t)on_mutex_acquired);
	set(OMPT_CALLBACK_IMPLICIT_TASK, (ompt_callback_t)on_implicit_task);
	set(OMPT_CALLBACK_TASK_CREATE, (ompt_callback_t)on_task_create);
	set(OMPT_CALLBACK_TASK_SCHEDULE, (ompt_callback_t)on_task_schedule);
	return 1; /* keep the tool */
}

static void ompt_fini(ompt_data_t *tool_data)
{
	(void)tool_data;
}

/* Called by an OMPT-capable runtime at start-up; NULL (no tool) when archscope is not recording. */
ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version);
ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
	static ompt_start_tool_result_t result = { ompt_init, ompt_fini, { 0 } };
	(void)omp_version;
	(void)runtime_version;
	return preload_self() ? &result : NULL;
}
