/* Kernel bookkeeping and binding constants to numbers; see kernel.h. */
#include "model/kernel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct kernel *kernel_new(void)
{
	return calloc(1, sizeof(struct kernel));
}

void kernel_free(struct kernel *k)
{
	free(k);
}

int kernel_sym_find(const struct kernel *k, const char *name)
{
	for (int i = 0; i < k->nsyms; i++)
		if (!strcmp(k->sym[i], name))
			return i;
	return -1;
}

int kernel_elsize(const struct kernel *k)
{
	int e = 0;
	for (int i = 0; i < k->narrays; i++)
		if (k->array[i].ndims && k->array[i].elsize > e)
			e = k->array[i].elsize;
	return e ? e : 8;
}

int kernel_flops(const struct kernel *k)
{
	return k->flops_add + k->flops_sub + k->flops_mul + k->flops_div;
}

static const char *const *names(const struct kernel *k)
{
	static __thread const char *n[POLY_MAX_SYMS];
	for (int i = 0; i < POLY_MAX_SYMS; i++)
		n[i] = i < k->nsyms ? k->sym[i] : "?";
	return n;
}

void kernel_access_format(const struct kernel *k, int i, char *buf, size_t len)
{
	const struct kaccess *a = &k->acc[i];
	size_t w = (size_t)snprintf(buf, len, "%s[", k->array[a->array].name);
	int any = 0;
	for (int l = 0; l < k->nloops && w < len; l++) {
		const struct poly *c = &a->idx.coef[l];
		if (poly_is_zero(c))
			continue;
		int64_t v;
		char p[160];
		if (poly_is_const(c, &v) && v == 1)
			snprintf(p, sizeof(p), "%s", k->loop[l].var);
		else if (poly_is_const(c, &v))
			snprintf(p, sizeof(p), "%lld*%s", (long long)v, k->loop[l].var);
		else {
			char q[128];
			poly_format(c, names(k), q, sizeof(q));
			snprintf(p, sizeof(p), c->n > 1 ? "(%s)*%s" : "%s*%s", q, k->loop[l].var);
		}
		w += (size_t)snprintf(buf + w, len - w, "%s%s", any ? " + " : "", p);
		any = 1;
	}
	if (w < len && (!any || !poly_is_zero(&a->idx.c))) {
		char q[128];
		poly_format(&a->idx.c, names(k), q, sizeof(q));
		if (any && q[0] == '-')
			w += (size_t)snprintf(buf + w, len - w, " - %s", q + 1);
		else
			w += (size_t)snprintf(buf + w, len - w, "%s%s", any ? " + " : "", q);
	}
	if (w < len)
		snprintf(buf + w, len - w, "]");
}

int kernel_bind(const struct kernel *k, const int64_t *vals, int64_t align, struct kbound *b, struct as_error *err)
{
	memset(b, 0, sizeof(*b));
	for (int s = 0; s < k->nsyms; s++) {
		if (vals[s] <= 0)
			return as_error_set(err, -EINVAL, "%s:%d:%d: constant '%s' must be a positive integer (given %lld)",
					    k->file, k->sym_pos[s].line, k->sym_pos[s].col, k->sym[s], (long long)vals[s]);
		b->val[s] = vals[s];
	}
	b->nloops = k->nloops;
	b->iterations = 1;
	for (int l = 0; l < k->nloops; l++) {
		const struct kloop *L = &k->loop[l];
		if (poly_eval(&L->start, b->val, &b->start[l]) || poly_eval(&L->end, b->val, &b->end[l]))
			return as_error_set(err, -ERANGE, "%s:%d:%d: the bounds of loop '%s' overflow 64 bits", k->file,
					    L->pos.line, L->pos.col, L->var);
		b->step[l] = L->step;
		if (b->end[l] <= b->start[l])
			return as_error_set(err, -EINVAL, "%s:%d:%d: loop '%s' runs no iteration (from %lld to below %lld)", k->file,
					    L->pos.line, L->pos.col, L->var, (long long)b->start[l], (long long)b->end[l]);
		int64_t span;
		if (__builtin_sub_overflow(b->end[l], b->start[l], &span) || __builtin_add_overflow(span, L->step - 1, &span))
			return as_error_set(err, -ERANGE, "%s:%d:%d: the trip count of loop '%s' overflows 64 bits", k->file,
					    L->pos.line, L->pos.col, L->var);
		b->trips[l] = span / L->step;
		if (__builtin_mul_overflow(b->iterations, b->trips[l], &b->iterations))
			return as_error_set(err, -ERANGE, "%s:%d:%d: the iteration count overflows 64 bits", k->file, L->pos.line,
					    L->pos.col);
	}
	b->narrays = k->narrays;
	int64_t addr = 0;
	if (align < 1)
		align = 1;
	for (int i = 0; i < k->narrays; i++) {
		const struct karray *a = &k->array[i];
		int64_t e = 1;
		for (int d = 0; d < a->ndims; d++) {
			int64_t v;
			if (poly_eval(&a->dim[d], b->val, &v) || __builtin_mul_overflow(e, v, &e))
				return as_error_set(err, -ERANGE, "%s:%d:%d: the size of '%s' overflows 64 bits", k->file, a->pos.line,
						    a->pos.col, a->name);
			if (v <= 0)
				return as_error_set(err, -EINVAL, "%s:%d:%d: dimension %d of '%s' is %lld: sizes must be positive",
						    k->file, a->pos.line, a->pos.col, d + 1, a->name, (long long)v);
		}
		b->elems[i] = e;
		if (__builtin_mul_overflow(e, (int64_t)a->elsize, &b->bytes[i]) || b->bytes[i] > (INT64_MAX >> 2))
			return as_error_set(err, -ERANGE, "%s:%d:%d: '%s' has more bytes than 64-bit counts allow", k->file,
					    a->pos.line, a->pos.col, a->name);
		if (a->ndims == 0)
			continue;
		addr = (addr + align - 1) / align * align;
		b->base[i] = addr;
		if (__builtin_add_overflow(addr, b->bytes[i], &addr) || addr > (INT64_MAX >> 2) ||
		    __builtin_add_overflow(b->total_bytes, b->bytes[i], &b->total_bytes))
			return as_error_set(err, -ERANGE, "%s:%d:%d: the arrays together have more bytes than 64-bit counts allow",
					    k->file, a->pos.line, a->pos.col);
	}
	b->naccesses = k->naccesses;
	for (int i = 0; i < k->naccesses; i++) {
		const struct kaccess *x = &k->acc[i];
		int64_t lo, hi;
		if (poly_eval(&x->idx.c, b->val, &b->off[i]))
			goto overflow;
		lo = hi = b->off[i];
		for (int l = 0; l < k->nloops; l++) {
			int64_t c, first, last;
			if (poly_eval(&x->idx.coef[l], b->val, &c))
				goto overflow;
			b->coef[i][l] = c;
			int64_t lastidx = b->start[l] + (b->trips[l] - 1) * b->step[l];
			if (__builtin_mul_overflow(c, b->start[l], &first) || __builtin_mul_overflow(c, lastidx, &last))
				goto overflow;
			if (__builtin_add_overflow(lo, first < last ? first : last, &lo) ||
			    __builtin_add_overflow(hi, first < last ? last : first, &hi))
				goto overflow;
		}
		if (lo < 0 || hi >= b->elems[x->array]) {
			char s[256];
			kernel_access_format(k, i, s, sizeof(s));
			return as_error_set(err, -EINVAL,
					    "%s:%d:%d: %s reaches element %lld of '%s', which has elements 0 to %lld: the loop bounds "
					    "and the array size do not fit",
					    k->file, x->pos.line, x->pos.col, s, (long long)(lo < 0 ? lo : hi), k->array[x->array].name,
					    (long long)b->elems[x->array] - 1);
		}
		continue;
overflow:
		return as_error_set(err, -ERANGE, "%s:%d:%d: this index overflows 64 bits", k->file, x->pos.line, x->pos.col);
	}
	return 0;
}
