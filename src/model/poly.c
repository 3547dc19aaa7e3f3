/* Integer polynomials over named constants; see poly.h. */
#include "model/poly.h"

#include <stdio.h>
#include <string.h>

static int degree(const struct poly_term *t)
{
	int d = 0;
	for (int i = 0; i < POLY_MAX_SYMS; i++)
		d += t->exp[i];
	return d;
}

/* Higher degree first, then by exponents (earlier symbols first), so "M*N + 2*N - 1". */
static int term_cmp(const struct poly_term *a, const struct poly_term *b)
{
	int da = degree(a), db = degree(b);
	if (da != db)
		return db - da;
	return -memcmp(a->exp, b->exp, sizeof(a->exp));
}

static int normalise(struct poly *p)
{
	/* insertion sort, merging equal monomials */
	for (int i = 1; i < p->n; i++) {
		struct poly_term x = p->t[i];
		int j = i - 1;
		while (j >= 0 && term_cmp(&p->t[j], &x) > 0) {
			p->t[j + 1] = p->t[j];
			j--;
		}
		p->t[j + 1] = x;
	}
	int w = 0;
	for (int i = 0; i < p->n; i++) {
		if (w > 0 && !memcmp(p->t[w - 1].exp, p->t[i].exp, sizeof(p->t[i].exp))) {
			if (__builtin_add_overflow(p->t[w - 1].coef, p->t[i].coef, &p->t[w - 1].coef))
				return -1;
		} else {
			p->t[w++] = p->t[i];
		}
	}
	int z = 0;
	for (int i = 0; i < w; i++)
		if (p->t[i].coef != 0)
			p->t[z++] = p->t[i];
	p->n = z;
	return 0;
}

void poly_const(struct poly *p, int64_t c)
{
	memset(p, 0, sizeof(*p));
	if (c) {
		p->n = 1;
		p->t[0].coef = c;
	}
}

void poly_sym(struct poly *p, int sym)
{
	memset(p, 0, sizeof(*p));
	p->n = 1;
	p->t[0].coef = 1;
	p->t[0].exp[sym] = 1;
}

static int combine(struct poly *r, const struct poly *a, const struct poly *b, int sign)
{
	struct poly out = { 0 };
	if (a->n + b->n > 2 * POLY_MAX_TERMS)
		return -1;
	struct poly_term tmp[2 * POLY_MAX_TERMS];
	int n = 0;
	for (int i = 0; i < a->n; i++)
		tmp[n++] = a->t[i];
	for (int i = 0; i < b->n; i++) {
		tmp[n] = b->t[i];
		if (sign < 0) {
			if (tmp[n].coef == INT64_MIN)
				return -1;
			tmp[n].coef = -tmp[n].coef;
		}
		n++;
	}
	/* merge in a scratch of double size, then check it fits */
	struct {
		int n;
		struct poly_term t[2 * POLY_MAX_TERMS];
	} big = { n, { { 0 } } };
	memcpy(big.t, tmp, sizeof(tmp[0]) * (size_t)n);
	for (int i = 0; i < big.n; i++)
		for (int j = i + 1; j < big.n; j++)
			if (!memcmp(big.t[i].exp, big.t[j].exp, sizeof(big.t[i].exp))) {
				if (__builtin_add_overflow(big.t[i].coef, big.t[j].coef, &big.t[i].coef))
					return -1;
				big.t[j] = big.t[--big.n];
				j--;
			}
	int m = 0;
	for (int i = 0; i < big.n; i++)
		if (big.t[i].coef)
			big.t[m++] = big.t[i];
	if (m > POLY_MAX_TERMS)
		return -1;
	out.n = m;
	memcpy(out.t, big.t, sizeof(out.t[0]) * (size_t)m);
	if (normalise(&out))
		return -1;
	*r = out;
	return 0;
}

int poly_add(struct poly *r, const struct poly *a, const struct poly *b)
{
	return combine(r, a, b, 1);
}

int poly_sub(struct poly *r, const struct poly *a, const struct poly *b)
{
	return combine(r, a, b, -1);
}

int poly_mul(struct poly *r, const struct poly *a, const struct poly *b)
{
	struct poly acc = { 0 };
	for (int i = 0; i < a->n; i++) {
		struct poly row = { 0 };
		for (int j = 0; j < b->n; j++) {
			struct poly_term t;
			if (__builtin_mul_overflow(a->t[i].coef, b->t[j].coef, &t.coef))
				return -1;
			for (int s = 0; s < POLY_MAX_SYMS; s++) {
				int e = a->t[i].exp[s] + b->t[j].exp[s];
				if (e > 60)
					return -1;
				t.exp[s] = (uint8_t)e;
			}
			row.t[row.n++] = t;
		}
		if (normalise(&row) || poly_add(&acc, &acc, &row))
			return -1;
	}
	*r = acc;
	return 0;
}

int poly_scale(struct poly *r, const struct poly *a, int64_t k)
{
	struct poly c;
	poly_const(&c, k);
	return poly_mul(r, a, &c);
}

int poly_is_const(const struct poly *p, int64_t *c)
{
	if (p->n == 0) {
		if (c)
			*c = 0;
		return 1;
	}
	if (p->n == 1 && degree(&p->t[0]) == 0) {
		if (c)
			*c = p->t[0].coef;
		return 1;
	}
	return 0;
}

int poly_is_zero(const struct poly *p)
{
	return p->n == 0;
}

int poly_equal(const struct poly *a, const struct poly *b)
{
	if (a->n != b->n)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (a->t[i].coef != b->t[i].coef || memcmp(a->t[i].exp, b->t[i].exp, sizeof(a->t[i].exp)))
			return 0;
	return 1;
}

unsigned poly_syms(const struct poly *p)
{
	unsigned m = 0;
	for (int i = 0; i < p->n; i++)
		for (int s = 0; s < POLY_MAX_SYMS; s++)
			if (p->t[i].exp[s])
				m |= 1u << s;
	return m;
}

int poly_eval(const struct poly *p, const int64_t *vals, int64_t *out)
{
	int64_t sum = 0;
	for (int i = 0; i < p->n; i++) {
		int64_t v = p->t[i].coef;
		for (int s = 0; s < POLY_MAX_SYMS; s++)
			for (int e = 0; e < p->t[i].exp[s]; e++)
				if (__builtin_mul_overflow(v, vals[s], &v))
					return -1;
		if (__builtin_add_overflow(sum, v, &sum))
			return -1;
	}
	*out = sum;
	return 0;
}

int poly_format(const struct poly *p, const char *const *names, char *buf, size_t len)
{
	size_t w = 0;
#define PUT(...)                                                                        \
	do {                                                                            \
		int k_ = snprintf(buf + (w < len ? w : len), w < len ? len - w : 0, __VA_ARGS__); \
		if (k_ > 0)                                                             \
			w += (size_t)k_;                                                \
	} while (0)
	if (len)
		buf[0] = 0;
	if (p->n == 0) {
		PUT("0");
		return (int)w;
	}
	for (int i = 0; i < p->n; i++) {
		const struct poly_term *t = &p->t[i];
		int64_t c = t->coef;
		uint64_t mag = c < 0 ? (uint64_t)0 - (uint64_t)c : (uint64_t)c;
		if (i == 0)
			PUT("%s", c < 0 ? "-" : "");
		else
			PUT(" %s ", c < 0 ? "-" : "+");
		int d = degree(t);
		if (d == 0 || mag != 1)
			PUT("%llu", (unsigned long long)mag);
		int first = !(d == 0 || mag != 1);
		for (int s = 0; s < POLY_MAX_SYMS; s++) {
			if (!t->exp[s])
				continue;
			PUT("%s%s", first ? "" : "*", names[s]);
			if (t->exp[s] > 1)
				PUT("^%d", t->exp[s]);
			first = 0;
		}
	}
#undef PUT
	return (int)w;
}
