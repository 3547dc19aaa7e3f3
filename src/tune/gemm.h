/* The benchmark of the generated kernel against OpenBLAS dgemm (Debian libopenblas, loaded with
 * dlopen so other commands never start its thread pool, and tune still runs without it): the
 * same data, one thread, the two interleaved in one run, each result checked against a plain
 * triple loop first; then the paper's check of the prediction. */
#ifndef ARCHSCOPE_TUNE_GEMM_H
#define ARCHSCOPE_TUNE_GEMM_H

#include <stdint.h>

#include "common/conditions.h"
#include "common/error.h"
#include "tune/gen.h"

#define TUNE_MAX_SIZES 256

/* cblas_dgemm, loaded. */
struct tune_openblas {
	void *dl;
	void (*dgemm)(int order, int transa, int transb, int m, int n, int k, double alpha, const double *a, int lda,
		      const double *b, int ldb, double beta, double *c, int ldc);
	char config[128];   /* openblas_get_config(), "" when absent */
	char lib[64];
};

/* Loads libopenblas.so.0 (or libopenblas.so) with OPENBLAS_NUM_THREADS=1 set first (this
 * process's environment) and its thread count set to 1. -ENOENT with the reason when absent. */
int tune_openblas_open(struct tune_openblas *b, struct as_error *err);
void tune_openblas_close(struct tune_openblas *b);

struct tune_stat {
	double min, median, max;
};

struct tune_gemm_point {
	long n;
	struct tune_stat tuned, openblas;  /* GFLOP/s (2 n^3 per call) */
	long calls;                        /* per timed repetition */
	int disturbed;                     /* repetitions preempted twice (both kernels; time kept) */
	double err_tuned, err_openblas;    /* max |C - C_ref| / max |C_ref| after one call */
};

struct tune_gemm_opts {
	long sizes[TUNE_MAX_SIZES];
	int nsizes;
	int reps;            /* timed repetitions of each size and kernel */
	double min_time_s;   /* each repetition runs at least this long */
	long predicted_n;
	uint64_t seed;
	void (*progress)(void *ctx, const char *what, int done, int total);
	void *ctx;
	volatile int *stop;  /* set (by a signal handler) to end with what was measured */
};

struct tune_gemm_run {
	struct tune_gemm_point p[TUNE_MAX_SIZES];
	int n;                  /* points measured */
	int reps_done;
	int have_openblas;
	int wrong;              /* points whose result did not match the reference */
	/* the check */
	struct conditions cond; /* the whole timing's conditions (common/conditions.h) */
	int noisy_reps;         /* repetitions kept though disturbed (after redoing up to reps of them) */
	int redone;             /* repetitions measured again because other work disturbed them */
	long peak_n;            /* size of the tuned kernel's highest median */
	long peak_n_best;       /* the same by the best repetition (least disturbed by other programs) */
	long step;              /* spacing of the sizes around the prediction */
	int peak_near_prediction;   /* |peak_n - predicted| <= step */
	long ratio_n;           /* the measured size nearest the prediction */
	double ratio_at_predicted;  /* tuned / OpenBLAS medians there (NaN without OpenBLAS) */
};

/* Runs the sweep; blas may be NULL (no OpenBLAS: the tuned kernel alone). -ENOMEM, or -EIO when
 * the tuned kernel's result is wrong (the sweep stops; out holds the sizes before). */
int tune_gemm_sweep(const struct tune_gemm_opts *o, tune_gemm_fn *kern, const struct tune_openblas *blas,
		    struct tune_gemm_run *out, struct as_error *err);

/* Sizes lo, lo + step, ..., <= hi (at most TUNE_MAX_SIZES); the count. */
int tune_sizes_fill(long *sizes, long lo, long hi, long step);

#endif
