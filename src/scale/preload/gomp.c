/* GCC's OpenMP runtime (libgomp), which has no OMPT: its exported entry points are wrapped. The
 * waits a program calls (GOMP_barrier, the end of a worksharing loop or sections, taskwait,
 * taskgroup, critical, atomic, ordered, omp_set_lock) are timed as "omp_barrier",
 * "omp_taskwait" and "omp_lock" at the program's call site, spin phase (GOMP_SPINCOUNT) and
 * futex sleep alike. The waits no call shows (the implicit barrier at the end of a parallel
 * region, and a worker's idle time before the next one) are found by running the region's
 * outlined function through a trampoline: after it returns, the thread waits until the master
 * leaves the region (omp_barrier) and a worker then until its next region (omp_idle). A task
 * (GOMP_task) runs through a trampoline too, which pauses the wait it runs inside (a barrier, a
 * taskwait: libgomp runs deferred tasks there), since running it is work. Nested regions pass
 * through untimed. */
#include <dlfcn.h>
#include <link.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "scale/preload/preload.h"

/* The declarations of libgomp's ABI (libgomp/libgomp_g.h, GCC 4.9 to 14). */
typedef void (*gomp_fn)(void *);
void GOMP_parallel(gomp_fn fn, void *data, unsigned num_threads, unsigned flags);
unsigned GOMP_parallel_reductions(gomp_fn fn, void *data, unsigned num_threads, unsigned flags);
void GOMP_parallel_sections(gomp_fn fn, void *data, unsigned num_threads, unsigned count, unsigned flags);
void GOMP_parallel_loop_static(gomp_fn fn, void *data, unsigned nt, long s, long e, long i, long c, unsigned f);
void GOMP_parallel_loop_dynamic(gomp_fn fn, void *data, unsigned nt, long s, long e, long i, long c, unsigned f);
void GOMP_parallel_loop_guided(gomp_fn fn, void *data, unsigned nt, long s, long e, long i, long c, unsigned f);
void GOMP_parallel_loop_nonmonotonic_dynamic(gomp_fn fn, void *data, unsigned nt, long s, long e, long i, long c,
					     unsigned f);
void GOMP_parallel_loop_nonmonotonic_guided(gomp_fn fn, void *data, unsigned nt, long s, long e, long i, long c,
					    unsigned f);
void GOMP_parallel_loop_runtime(gomp_fn fn, void *data, unsigned nt, long s, long e, long i, unsigned f);
void GOMP_parallel_loop_nonmonotonic_runtime(gomp_fn fn, void *data, unsigned nt, long s, long e, long i, unsigned f);
void GOMP_parallel_loop_maybe_nonmonotonic_runtime(gomp_fn fn, void *data, unsigned nt, long s, long e, long i,
						   unsigned f);
void GOMP_barrier(void);
bool GOMP_barrier_cancel(void);
void GOMP_loop_end(void);
bool GOMP_loop_end_cancel(void);
void GOMP_sections_end(void);
bool GOMP_sections_end_cancel(void);
void GOMP_taskwait(void);
void GOMP_taskgroup_end(void);
void GOMP_critical_start(void);
void GOMP_critical_name_start(void **pptr);
void GOMP_atomic_start(void);
void GOMP_ordered_start(void);
typedef struct {
	int lock[16]; /* opaque: passed through */
} gomp_lock_t;
void omp_set_lock(gomp_lock_t *lock);
void omp_set_nest_lock(gomp_lock_t *lock);
/* GCC 11 and later; earlier ones pass fewer arguments, which are passed on as they came */
void GOMP_task(gomp_fn fn, void *data, void (*cpyfn)(void *, void *), long arg_size, long arg_align, bool if_clause,
	       unsigned flags, void **depend, int priority, void *detach);

/* One region: what the trampoline runs, and who runs it as master. */
struct region {
	gomp_fn fn;
	void *data;
	struct preload_thread *master;
	uintptr_t site; /* the GOMP_parallel call in the program */
};

/* The site of the region the calling thread runs (its GOMP_parallel call): a wait the outlined
 * function makes as a tail call (gcc ends a region body with `jmp GOMP_barrier`) returns into
 * the trampoline, which is no place in the program. */
static __thread uintptr_t region_site;

struct bounds {
	uintptr_t base, lo, hi;
};

static int segments(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	struct bounds *b = arg;
	if (info->dlpi_addr != b->base)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD) {
			uintptr_t a = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
			uintptr_t e = a + info->dlpi_phdr[i].p_memsz;
			b->lo = !b->lo || a < b->lo ? a : b->lo;
			b->hi = e > b->hi ? e : b->hi;
		}
	return 1;
}

static uintptr_t wait_site(uintptr_t ret);
static uintptr_t wait_site(uintptr_t ret)
{
	static struct bounds self; /* this library's segments: the same for every thread */
	static int known;
	if (!__atomic_load_n(&known, __ATOMIC_ACQUIRE)) {
		Dl_info info;
		struct bounds b = { 0, 0, 0 };
		if (dladdr((void *)wait_site, &info) && info.dli_fbase) {
			b.base = (uintptr_t)info.dli_fbase;
			dl_iterate_phdr(segments, &b);
		}
		self = b;
		__atomic_store_n(&known, 1, __ATOMIC_RELEASE);
	}
	return ret >= self.lo && ret < self.hi && region_site ? region_site : ret;
}

/* The region's outlined function, on every thread of the team. Before it: a worker closes its
 * wait since its last region (barrier up to that region's end, idle after). After it: the wait
 * for the region's end begins (the master's ends when GOMP_parallel returns). */
static void trampoline(void *p)
{
	struct region *r = p;
	struct preload_thread *t = preload_me ? preload_me : preload_self();
	if (t && t != r->master)
		while (t->nws > 0 && t->ws[t->nws - 1].prim == PRIM_OMP_BARRIER && t->ws[t->nws - 1].split)
			preload_rt_end(t);
	if (t)
		t->rt_region++;
	uintptr_t outer = region_site;
	region_site = r->site;
	r->fn(r->data);
	region_site = outer;
	if (t) {
		t->rt_region--;
		preload_rt_begin(t, PRIM_OMP_BARRIER, r->site, t != r->master);
	}
}

/* Runs a parallel entry point through the trampoline when the caller is not inside a region. */
#define PARALLEL(call_real)                                                                        \
	struct preload_thread *t_ = preload_counted();                                             \
	if (!t_ || t_->rt_region > 0) {                                                            \
		call_real;                                                                         \
		return;                                                                            \
	}                                                                                          \
	struct region r_ = { fn, data, t_, (uintptr_t)__builtin_return_address(0) };               \
	fn = trampoline;                                                                           \
	data = &r_;                                                                                \
	call_real;                                                                                 \
	preload_rt_end(t_); /* the master's end-of-region barrier */                               \
	__atomic_store_n(&preload_region_end, preload_ticks(), __ATOMIC_RELEASE);

void GOMP_parallel(gomp_fn fn, void *data, unsigned num_threads, unsigned flags)
{
	REAL(GOMP_parallel);
	PARALLEL(real_(fn, data, num_threads, flags))
}

unsigned GOMP_parallel_reductions(gomp_fn fn, void *data, unsigned num_threads, unsigned flags)
{
	REAL(GOMP_parallel_reductions);
	struct preload_thread *t_ = preload_counted();
	if (!t_ || t_->rt_region > 0)
		return real_(fn, data, num_threads, flags);
	struct region r_ = { fn, data, t_, (uintptr_t)__builtin_return_address(0) };
	unsigned ret = real_(trampoline, &r_, num_threads, flags);
	preload_rt_end(t_);
	__atomic_store_n(&preload_region_end, preload_ticks(), __ATOMIC_RELEASE);
	return ret;
}

void GOMP_parallel_sections(gomp_fn fn, void *data, unsigned num_threads, unsigned count, unsigned flags)
{
	REAL(GOMP_parallel_sections);
	PARALLEL(real_(fn, data, num_threads, count, flags))
}

#define PARALLEL_LOOP(name)                                                                        \
	void name(gomp_fn fn, void *data, unsigned nt, long s, long e, long i, long c, unsigned f) \
	{                                                                                          \
		REAL(name);                                                                        \
		PARALLEL(real_(fn, data, nt, s, e, i, c, f))                                       \
	}
PARALLEL_LOOP(GOMP_parallel_loop_static)
PARALLEL_LOOP(GOMP_parallel_loop_dynamic)
PARALLEL_LOOP(GOMP_parallel_loop_guided)
PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_dynamic)
PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_guided)

#define PARALLEL_LOOP_RUNTIME(name)                                                                \
	void name(gomp_fn fn, void *data, unsigned nt, long s, long e, long i, unsigned f)         \
	{                                                                                          \
		REAL(name);                                                                        \
		PARALLEL(real_(fn, data, nt, s, e, i, f))                                          \
	}
PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_runtime)
PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_nonmonotonic_runtime)
PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_maybe_nonmonotonic_runtime)

/* The waits a program calls. */
#define WAIT_VOID(name, prim, decl, args)                                                          \
	void name decl                                                                             \
	{                                                                                          \
		REAL(name);                                                                        \
		struct preload_thread *t_ = preload_counted();                                     \
		preload_rt_begin(t_, prim, wait_site((uintptr_t)__builtin_return_address(0)), 0);  \
		real_ args;                                                                        \
		preload_rt_end(t_);                                                                \
	}
#define WAIT_BOOL(name, prim)                                                                      \
	bool name(void)                                                                            \
	{                                                                                          \
		REAL(name);                                                                        \
		struct preload_thread *t_ = preload_counted();                                     \
		preload_rt_begin(t_, prim, wait_site((uintptr_t)__builtin_return_address(0)), 0);  \
		bool r_ = real_();                                                                 \
		preload_rt_end(t_);                                                                \
		return r_;                                                                         \
	}

WAIT_VOID(GOMP_barrier, PRIM_OMP_BARRIER, (void), ())
WAIT_BOOL(GOMP_barrier_cancel, PRIM_OMP_BARRIER)
WAIT_VOID(GOMP_loop_end, PRIM_OMP_BARRIER, (void), ())
WAIT_BOOL(GOMP_loop_end_cancel, PRIM_OMP_BARRIER)
WAIT_VOID(GOMP_sections_end, PRIM_OMP_BARRIER, (void), ())
WAIT_BOOL(GOMP_sections_end_cancel, PRIM_OMP_BARRIER)
WAIT_VOID(GOMP_taskwait, PRIM_OMP_TASKWAIT, (void), ())
WAIT_VOID(GOMP_taskgroup_end, PRIM_OMP_TASKWAIT, (void), ())
WAIT_VOID(GOMP_critical_start, PRIM_OMP_LOCK, (void), ())
WAIT_VOID(GOMP_critical_name_start, PRIM_OMP_LOCK, (void **pptr), (pptr))
WAIT_VOID(GOMP_atomic_start, PRIM_OMP_LOCK, (void), ())
WAIT_VOID(GOMP_ordered_start, PRIM_OMP_LOCK, (void), ())
WAIT_VOID(omp_set_lock, PRIM_OMP_LOCK, (gomp_lock_t * lock), (lock))
WAIT_VOID(omp_set_nest_lock, PRIM_OMP_LOCK, (gomp_lock_t * lock), (lock))

/* Tasks: the task's argument block gets a header in front, which libgomp copies with the block
 * (memcpy, or the program's copy function through ours), so that the trampoline it calls knows
 * the task's own function and where its argument starts. */
struct task_head {
	gomp_fn fn;
	void (*cpyfn)(void *, void *);
	const void *src;  /* the program's argument block, for its copy function (during GOMP_task) */
	long off;         /* the program's block starts this far into ours */
};

#define TASK_ARG_MAX 2048 /* larger argument blocks pass through untimed (the copy is on the stack, and
			    * a task runs nested GOMP_task calls when libgomp runs it at once) */

static void task_trampoline(void *arg)
{
	struct task_head *h = arg;
	struct preload_thread *t = preload_me ? preload_me : preload_self();
	preload_rt_task_enter(t);
	h->fn((char *)arg + h->off);
	preload_rt_task_leave(t);
}

static void task_copy(void *dst, void *src)
{
	struct task_head *h = src;
	memcpy(dst, h, sizeof(*h));
	h->cpyfn((char *)dst + h->off, (void *)h->src);
}

void GOMP_task(gomp_fn fn, void *data, void (*cpyfn)(void *, void *), long arg_size, long arg_align, bool if_clause,
	       unsigned flags, void **depend, int priority, void *detach)
{
	REAL(GOMP_task);
	long align = arg_align > (long)alignof(struct task_head) ? arg_align : (long)alignof(struct task_head);
	long off = ((long)sizeof(struct task_head) + align - 1) / align * align;
	if (!fn || arg_size < 0 || arg_size > TASK_ARG_MAX || align > 256 || (align & (align - 1))) {
		real_(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend, priority, detach);
		return;
	}
	/* our block on the stack, aligned as the task's argument asks */
	char raw[off + arg_size + align];
	char *block = (char *)(((uintptr_t)raw + (uintptr_t)align - 1) & ~((uintptr_t)align - 1));
	struct task_head *h = (struct task_head *)block;
	h->fn = fn;
	h->cpyfn = cpyfn;
	h->src = data;
	h->off = off;
	if (!cpyfn && arg_size > 0)
		memcpy(block + off, data, (size_t)arg_size);
	real_(task_trampoline, block, cpyfn ? task_copy : NULL, off + arg_size, align, if_clause, flags, depend, priority,
	      detach);
}
