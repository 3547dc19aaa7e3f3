/* The wrapped calls: each passes its arguments to the real function unchanged and returns its
 * result and errno unchanged. Locks try the non-blocking variant first, so an uncontended lock
 * costs no clock read and no bookkeeping; only a wait that may block is timed (preload_ticks())
 * and charged to its call site. */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdint.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "scale/preload/preload.h"

#define wait_begin preload_wait_begin
#define wait_end preload_wait_end

/* Threads */

static void *trampoline(void *p)
{
	struct preload_thread *t = p;
	preload_thread_begin(t);
	void *r = t->start_fn(t->start_arg);
	preload_thread_end(t);
	return r;
}

int pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	REAL(pthread_create);
	struct preload_thread *t = preload_inside ? NULL : preload_thread_new();
	if (whatif_on)
		whatif_pay(); /* the new thread starts even with the global delay count */
	if (!t)
		return real_(th, attr, fn, arg);
	t->start_fn = fn;
	t->start_arg = arg;
	return real_(th, attr, trampoline, t);
}

void pthread_exit(void *ret)
{
	REAL(pthread_exit);
	preload_thread_end(preload_self());
	real_(ret);
	__builtin_unreachable();
}

int pthread_join(pthread_t th, void **ret)
{
	REAL(pthread_join);
	uint64_t t0 = wait_begin();
	int r = real_(th, ret);
	wait_end(PRIM_JOIN, t0, __builtin_return_address(0));
	return r;
}

/* Locks: the try variant first; EBUSY means a wait is coming. A thread whose locks keep
 * contending close together skips the try and times one call in PRELOAD_LOCK_EVERY (preload.h). */

static inline int lock_hot(struct preload_thread *t)
{
	return t && !preload_inside && t->lock_hot >= PRELOAD_LOCK_HOT;
}

static inline void lock_cooler(struct preload_thread *t)
{
	if (t && t->lock_hot)
		t->lock_hot--;
}

static inline void lock_hotter(struct preload_thread *t)
{
	if (t)
		t->lock_hot = t->lock_hot + 4 < 4 * PRELOAD_LOCK_HOT ? t->lock_hot + 4 : 4 * PRELOAD_LOCK_HOT;
}

/* After a timed wait (t0..t1, d ticks): heats the regime when it followed the last one closely;
 * a looked-at wait of the hot regime that was long counts once and ends the regime. */
static inline void lock_weigh(struct preload_thread *t, uint64_t t0, uint64_t t1, uint64_t d, uint64_t *weight)
{
	if (!t)
		return;
	uint64_t sh = preload_lock_short_ticks();
	if (*weight > 1 && d > PRELOAD_LOCK_LONG * sh) {
		*weight = 1;
		t->lock_hot = 0;
	} else if (t0 - t->lock_last < PRELOAD_LOCK_NEAR * sh) {
		lock_hotter(t);
	}
	t->lock_last = t1;
}

#define LOCK_WRAPPER(name, tryname, prim, decl, args)                                              \
	int name decl                                                                              \
	{                                                                                          \
		REAL(name);                                                                        \
		static __typeof__(tryname) *try_;                                                  \
		if (!try_)                                                                         \
			try_ = (__typeof__(tryname) *)preload_real(#tryname);                      \
		struct preload_thread *me_ = preload_me;                                           \
		uint64_t weight = 1;                                                               \
		if (lock_hot(me_)) {                                                               \
			if (++me_->lock_turn % PRELOAD_LOCK_EVERY)                                  \
				return real_ args;                                                 \
			weight = PRELOAD_LOCK_EVERY; /* this one stands for the calls not looked at */ \
		}                                                                                  \
		int rc = try_ args;                                                                \
		if (rc != EBUSY) {                                                                 \
			lock_cooler(me_);                                                          \
			return rc == 0 || rc == EOWNERDEAD ? rc : real_ args; /* robust: taken */ \
		}                                                                                  \
		uint64_t t0 = wait_begin();                                                        \
		int r = real_ args;                                                                \
		if (t0) {                                                                          \
			uint64_t t1 = preload_ticks(), d = t1 > t0 ? t1 - t0 : 0;                  \
			lock_weigh(me_, t0, t1, d, &weight);                                       \
			preload_account_n(preload_me, prim, d * weight,                             \
					  (uintptr_t)__builtin_return_address(0), weight);         \
			preload_inside = 0;                                                        \
		}                                                                                  \
		return r;                                                                          \
	}

LOCK_WRAPPER(pthread_mutex_lock, pthread_mutex_trylock, PRIM_MUTEX, (pthread_mutex_t *m), (m))
LOCK_WRAPPER(pthread_rwlock_rdlock, pthread_rwlock_tryrdlock, PRIM_RWLOCK, (pthread_rwlock_t *l), (l))
LOCK_WRAPPER(pthread_rwlock_wrlock, pthread_rwlock_trywrlock, PRIM_RWLOCK, (pthread_rwlock_t *l), (l))
LOCK_WRAPPER(pthread_spin_lock, pthread_spin_trylock, PRIM_PTHREAD_SPIN, (pthread_spinlock_t *l), (l))

/* Try variants never wait: a failed try is counted (a loop of them is a wait no clock sees; the
 * sampler finds it if it spins with a hint), with no time. */

#define TRY_WRAPPER(name, prim, busy, decl, args)                                                  \
	int name decl                                                                              \
	{                                                                                          \
		REAL(name);                                                                        \
		int r = real_ args;                                                                \
		struct preload_thread *t_;                                                         \
		if (busy && (t_ = preload_counted())) {                                            \
			int saved = errno;                                                         \
			preload_account(t_, prim, 0, (uintptr_t)__builtin_return_address(0));     \
			errno = saved;                                                             \
		}                                                                                  \
		return r;                                                                          \
	}

TRY_WRAPPER(pthread_mutex_trylock, PRIM_MUTEX, r == EBUSY, (pthread_mutex_t *m), (m))
TRY_WRAPPER(pthread_rwlock_tryrdlock, PRIM_RWLOCK, r == EBUSY, (pthread_rwlock_t *l), (l))
TRY_WRAPPER(pthread_rwlock_trywrlock, PRIM_RWLOCK, r == EBUSY, (pthread_rwlock_t *l), (l))
TRY_WRAPPER(pthread_spin_trylock, PRIM_PTHREAD_SPIN, r == EBUSY, (pthread_spinlock_t *l), (l))
TRY_WRAPPER(sem_trywait, PRIM_SEM, r != 0 && errno == EAGAIN, (sem_t *s), (s))

/* Waits that block by nature, or with a time limit: always timed. */

#define TIMED_WRAPPER(ret, name, prim, decl, args)                                                 \
	ret name decl                                                                              \
	{                                                                                          \
		REAL(name);                                                                        \
		uint64_t t0 = wait_begin();                                                        \
		ret r = real_ args;                                                                \
		wait_end(prim, t0, __builtin_return_address(0));                                   \
		return r;                                                                          \
	}

TIMED_WRAPPER(int, pthread_mutex_timedlock, PRIM_MUTEX, (pthread_mutex_t *m, const struct timespec *t), (m, t))
TIMED_WRAPPER(int, pthread_mutex_clocklock, PRIM_MUTEX, (pthread_mutex_t *m, clockid_t c, const struct timespec *t),
	      (m, c, t))
TIMED_WRAPPER(int, pthread_rwlock_timedrdlock, PRIM_RWLOCK, (pthread_rwlock_t *l, const struct timespec *t), (l, t))
TIMED_WRAPPER(int, pthread_rwlock_timedwrlock, PRIM_RWLOCK, (pthread_rwlock_t *l, const struct timespec *t), (l, t))
TIMED_WRAPPER(int, pthread_cond_wait, PRIM_COND, (pthread_cond_t *c, pthread_mutex_t *m), (c, m))
TIMED_WRAPPER(int, pthread_cond_timedwait, PRIM_COND,
	      (pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *t), (c, m, t))
TIMED_WRAPPER(int, pthread_cond_clockwait, PRIM_COND,
	      (pthread_cond_t *c, pthread_mutex_t *m, clockid_t k, const struct timespec *t), (c, m, k, t))
TIMED_WRAPPER(int, pthread_barrier_wait, PRIM_BARRIER, (pthread_barrier_t *b), (b))
TIMED_WRAPPER(int, sem_timedwait, PRIM_SEM, (sem_t *s, const struct timespec *t), (s, t))
TIMED_WRAPPER(int, sem_clockwait, PRIM_SEM, (sem_t *s, clockid_t c, const struct timespec *t), (s, c, t))
TIMED_WRAPPER(int, sched_yield, PRIM_YIELD, (void), ())
TIMED_WRAPPER(int, nanosleep, PRIM_SLEEP, (const struct timespec *a, struct timespec *b), (a, b))
TIMED_WRAPPER(int, clock_nanosleep, PRIM_SLEEP, (clockid_t c, int f, const struct timespec *a, struct timespec *b),
	      (c, f, a, b))
TIMED_WRAPPER(int, usleep, PRIM_SLEEP, (useconds_t u), (u))
TIMED_WRAPPER(unsigned, sleep, PRIM_SLEEP, (unsigned s), (s))

/* sem_wait: sem_trywait first, restoring the errno its EAGAIN set. */
int sem_wait(sem_t *s)
{
	REAL(sem_wait);
	static __typeof__(sem_trywait) *try_;
	if (!try_)
		try_ = (__typeof__(sem_trywait) *)preload_real("sem_trywait");
	int saved = errno;
	if (try_(s) == 0)
		return 0;
	errno = saved;
	uint64_t t0 = wait_begin();
	int r = real_(s);
	wait_end(PRIM_SEM, t0, __builtin_return_address(0));
	return r;
}

/* Futex waits made through syscall(); every other system call passes straight through. */
long syscall(long number, ...)
{
	REAL(syscall);
	va_list ap;
	va_start(ap, number);
	long a[6];
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (number != SYS_futex)
		return real_(number, a[0], a[1], a[2], a[3], a[4], a[5]);
	int op = (int)a[1] & FUTEX_CMD_MASK;
	if (op != FUTEX_WAIT && op != FUTEX_WAIT_BITSET && op != FUTEX_LOCK_PI && op != FUTEX_WAIT_REQUEUE_PI)
		return real_(number, a[0], a[1], a[2], a[3], a[4], a[5]);
	uint64_t t0 = wait_begin();
	long r = real_(number, a[0], a[1], a[2], a[3], a[4], a[5]);
	int saved = errno;
	wait_end(PRIM_FUTEX, t0, __builtin_return_address(0));
	errno = saved;
	return r;
}
