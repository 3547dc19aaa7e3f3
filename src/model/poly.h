/* Polynomials with integer coefficients over the kernel's named constants (N, M, ...): array
 * sizes, loop bounds and index offsets of a kernel stay symbolic until -D binds them, so layer
 * conditions can be printed as "32*N - 16 B <= 32768 B". Small and fixed-size: a kernel's
 * expressions have a handful of terms. Every operation checks for overflow. */
#ifndef ARCHSCOPE_MODEL_POLY_H
#define ARCHSCOPE_MODEL_POLY_H

#include <stddef.h>
#include <stdint.h>

#define POLY_MAX_SYMS 12
#define POLY_MAX_TERMS 16

struct poly_term {
	int64_t coef;
	uint8_t exp[POLY_MAX_SYMS];
};

struct poly {
	int n; /* terms, normalised: no zero coefficients, no two equal monomials, sorted */
	struct poly_term t[POLY_MAX_TERMS];
};

void poly_const(struct poly *p, int64_t c);
void poly_sym(struct poly *p, int sym);
/* r = a + b, a - b, a * b, -a, k * a. 0, or -1 on overflow (coefficients, terms, exponents). */
int poly_add(struct poly *r, const struct poly *a, const struct poly *b);
int poly_sub(struct poly *r, const struct poly *a, const struct poly *b);
int poly_mul(struct poly *r, const struct poly *a, const struct poly *b);
int poly_scale(struct poly *r, const struct poly *a, int64_t k);
/* 1 when p has no symbols (its value in *c), else 0. */
int poly_is_const(const struct poly *p, int64_t *c);
int poly_is_zero(const struct poly *p);
int poly_equal(const struct poly *a, const struct poly *b);
/* Which symbols occur (bit i for symbol i). */
unsigned poly_syms(const struct poly *p);
/* Value with the symbols bound to vals[]; 0, or -1 on int64 overflow. */
int poly_eval(const struct poly *p, const int64_t *vals, int64_t *out);
/* "4*N - 2", "M*N", "N^2", "0"; names[i] names symbol i. Returns the length (snprintf-like). */
int poly_format(const struct poly *p, const char *const *names, char *buf, size_t len);

#endif
