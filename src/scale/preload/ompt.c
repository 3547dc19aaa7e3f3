/* OpenMP through OMPT (OpenMP 5.0 tools interface), where the runtime offers it (LLVM libomp;
 * GCC's libgomp does not): barrier and taskwait waits (sync_region_wait) are charged to
 * "barrier", waits for locks and critical sections (mutex_acquire to mutex_acquired) to "mutex",
 * each at the call site the runtime reports. The few declarations needed are written here with
 * the values the OpenMP 5.0 specification fixes, so the library still depends on libc alone. */
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
	OMPT_CALLBACK_SYNC_REGION_WAIT = 16,
	OMPT_CALLBACK_MUTEX_ACQUIRE = 26,
	OMPT_CALLBACK_MUTEX_ACQUIRED = 27,
	OMPT_SCOPE_BEGIN = 1,
	OMPT_SCOPE_END = 2,
	OMPT_SET_NEVER = 1,
};

static __thread uint64_t sync_t0, mutex_t0;

/* Ticks from t0 to now; 0 when another core's counter reads behind (see wrap.c). */
static uint64_t ticks_since(uint64_t t0)
{
	uint64_t t1 = preload_ticks();
	return t1 > t0 ? t1 - t0 : 0;
}

static void on_sync_wait(int kind, int endpoint, ompt_data_t *parallel, ompt_data_t *task, const void *codeptr)
{
	(void)kind;
	(void)parallel;
	(void)task;
	if (endpoint == OMPT_SCOPE_BEGIN && preload_counted()) {
		sync_t0 = preload_ticks();
		preload_inside = 1; /* the runtime's own yields and futex waits are part of this wait */
	} else if (endpoint == OMPT_SCOPE_END && sync_t0) {
		preload_account(preload_me, PRIM_BARRIER, ticks_since(sync_t0), (uintptr_t)codeptr);
		sync_t0 = 0;
		preload_inside = 0;
	}
}

static void on_mutex_acquire(int kind, unsigned hint, unsigned impl, uint64_t wait_id, const void *codeptr)
{
	(void)kind;
	(void)hint;
	(void)impl;
	(void)wait_id;
	(void)codeptr;
	if (preload_counted()) {
		mutex_t0 = preload_ticks();
		preload_inside = 1;
	}
}

static void on_mutex_acquired(int kind, uint64_t wait_id, const void *codeptr)
{
	(void)kind;
	(void)wait_id;
	if (mutex_t0) {
		preload_account(preload_me, PRIM_MUTEX, ticks_since(mutex_t0), (uintptr_t)codeptr);
		mutex_t0 = 0;
		preload_inside = 0;
	}
}

static int ompt_init(ompt_function_lookup_t lookup, int initial_device_num, ompt_data_t *tool_data)
{
	(void)initial_device_num;
	(void)tool_data;
	ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
	if (!set)
		return 0;
	set(OMPT_CALLBACK_SYNC_REGION_WAIT, (ompt_callback_t)on_sync_wait);
	set(OMPT_CALLBACK_MUTEX_ACQUIRE, (ompt_callback_t)on_mutex_acquire);
	set(OMPT_CALLBACK_MUTEX_ACQUIRED, (ompt_callback_t)on_mutex_acquired);
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
