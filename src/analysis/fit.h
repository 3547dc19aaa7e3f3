/* Fits of y against a parameter x for `regress` (EvSel's regression, NUMA thesis §4.1.2, beyond
 * its linear-only fits): constant, linear, quadratic, exponential (log-linear) and power (log-log),
 * each with R² and AICc on the same (y) scale, so the shape with the lowest AICc is the best. */
#ifndef ARCHSCOPE_ANALYSIS_FIT_H
#define ARCHSCOPE_ANALYSIS_FIT_H

#include <stddef.h>

/* The models, once: FIT_<ID> and its name (fit_name). */
#define FIT_LIST(X) X(CONSTANT, "constant") X(LINEAR, "linear") X(QUADRATIC, "quadratic") X(EXPONENTIAL, "exponential") X(POWER, "power")
enum fit_model {
#define X(id, name) FIT_##id,
	FIT_LIST(X)
#undef X
	FIT_MODELS
};

struct fit_result {
	int valid;        /* 0: not fitted (too few points, y <= 0 for exponential/power, x <= 0 for power) */
	int ncoef;
	double coef[3];   /* constant a; linear a + b x; quadratic a + b x + c x²; exponential a e^(b x);
			     power a x^b */
	double rss;       /* residual sum of squares of y */
	double r2;        /* 1 - rss / total sum of squares of y (1 when both are 0) */
	double aicc;      /* n ln(rss / n) + 2k + 2k(k+1)/(n-k-1), k = ncoef + 1 (the noise) */
};

struct fit_all {
	struct fit_result m[FIT_MODELS];
	int lowest;       /* the valid fit with the lowest AICc; -1 when none */
	int best;         /* the shape named: the fit with the fewest coefficients (then the lowest AICc)
			     among those the lowest does not clearly beat, i.e. whose AICc is within
			     FIT_AICC_BAND of it or, for a polynomial standing for a polynomial,
			     whose root-mean-square residual is within FIT_RMS_BAND of the mean |y|
			     of the lowest's; -1 when none */
};

/* A difference in AICc of 2 or less is no real support for either model (Burnham and Anderson);
 * a residual 1 % of the values smaller is below what a performance engineer acts on. */
#define FIT_AICC_BAND 2.0
#define FIT_RMS_BAND 0.01

/* Fits every model to the n points (NaN y values are left out). Returns 0, or -1 when fewer than
 * 2 points remain or out of memory. */
int fit_all(const double *x, const double *y, size_t n, struct fit_all *out);
double fit_eval(enum fit_model m, const double *coef, double x);
const char *fit_name(enum fit_model m);
/* The model as a formula for people and gnuplot ("a + b*x"), with the coefficients written in. */
void fit_formula(enum fit_model m, const double *coef, char *buf, size_t len);

#endif
