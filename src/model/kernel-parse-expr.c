/* The kernel reader's expressions: indices, bounds and sizes as affine functions of the loop
 * indices with polynomial coefficients in the constants, the array accesses, and the right-hand
 * sides whose flops are counted. */
#include "model/kernel-parse.h"

#include <string.h>

/* --- affine expressions (indices, bounds) ----------------------------------------------- */

static int aff_const(struct kaff *a, int64_t v)
{
	memset(a, 0, sizeof(*a));
	poly_const(&a->c, v);
	return 0;
}

int kparse_aff_has_loops(const struct kaff *a, int nloops)
{
	for (int l = 0; l < nloops; l++)
		if (!poly_is_zero(&a->coef[l]))
			return 1;
	return 0;
}

static int aff_combine(struct kaff *r, const struct kaff *a, const struct kaff *b, int sign)
{
	for (int l = 0; l < KERNEL_MAX_LOOPS; l++)
		if ((sign > 0 ? poly_add : poly_sub)(&r->coef[l], &a->coef[l], &b->coef[l]))
			return -1;
	return (sign > 0 ? poly_add : poly_sub)(&r->c, &a->c, &b->c);
}

static int aff_scale(struct kaff *r, const struct kaff *a, const struct poly *s)
{
	for (int l = 0; l < KERNEL_MAX_LOOPS; l++)
		if (poly_mul(&r->coef[l], &a->coef[l], s))
			return -1;
	return poly_mul(&r->c, &a->c, s);
}

static int loop_of(struct walk *w, CXCursor decl)
{
	for (int l = 0; l < w->k->nloops; l++)
		if (kclang.clang_equalCursors(decl, w->loopvar[l]))
			return l;
	return -1;
}

static int sym_of(struct walk *w, CXCursor decl)
{
	char name[KERNEL_NAME_LEN];
	kparse_spelling(decl, name, sizeof(name));
	CXCursor parent = kclang.clang_getCursorSemanticParent(decl);
	if (kclang.clang_getCursorKind(parent) != CXCursor_TranslationUnit)
		return -1;
	return kernel_sym_find(w->k, name);
}

static int affine_of(struct walk *w, CXCursor c, struct kaff *out, const char *what);

/* Both readers recurse once per operator: the depth is bounded so a long expression gets a
 * message, not a stack overflow. */
int kparse_affine(struct walk *w, CXCursor c, struct kaff *out, const char *what)
{
	if (w->depth >= KERNEL_MAX_EXPR_DEPTH)
		return kparse_fail(w, c, "%s nested deeper than %d operators (the limit)", what, KERNEL_MAX_EXPR_DEPTH);
	w->depth++;
	int rc = affine_of(w, c, out, what);
	w->depth--;
	return rc;
}

static int affine_of(struct walk *w, CXCursor c, struct kaff *out, const char *what)
{
	c = kparse_bare(c);
	enum CXCursorKind kind = kclang.clang_getCursorKind(c);
	struct kids k = kparse_children(c);
	char op[8];
	switch (kind) {
	case CXCursor_IntegerLiteral: {
		CXEvalResult r = kclang.clang_Cursor_Evaluate(c);
		if (!r)
			return kparse_fail(w, c, "cannot read this integer");
		long long v = kclang.clang_EvalResult_getAsLongLong(r);
		kclang.clang_EvalResult_dispose(r);
		return aff_const(out, v);
	}
	case CXCursor_DeclRefExpr: {
		CXCursor d = kclang.clang_getCursorReferenced(c);
		int l = loop_of(w, d);
		memset(out, 0, sizeof(*out));
		if (l >= 0) {
			poly_const(&out->coef[l], 1);
			return 0;
		}
		int s = sym_of(w, d);
		if (s >= 0) {
			poly_sym(&out->c, s);
			return 0;
		}
		char name[KERNEL_NAME_LEN];
		kparse_spelling(c, name, sizeof(name));
		return kparse_fail(w, c, "%s uses '%s', which is neither a loop index of an enclosing loop nor a constant", what, name);
	}
	case CXCursor_BinaryOperator: {
		if (k.n != 2)
			return kparse_fail(w, c, "cannot read this expression");
		kparse_binop(w, c, &k, op, sizeof(op));
		struct kaff a, b;
		int rc;
		if ((rc = kparse_affine(w, k.c[0], &a, what)) || (rc = kparse_affine(w, k.c[1], &b, what)))
			return rc;
		if (!strcmp(op, "+") || !strcmp(op, "-")) {
			if (aff_combine(out, &a, &b, op[0] == '+' ? 1 : -1))
				return kparse_fail(w, c, "%s is too large", what);
			return 0;
		}
		if (!strcmp(op, "*")) {
			int la = kparse_aff_has_loops(&a, w->k->nloops), lb = kparse_aff_has_loops(&b, w->k->nloops);
			if (la && lb)
				return kparse_fail(w, c, "%s multiplies loop indices: only affine indices are supported", what);
			if (la ? aff_scale(out, &a, &b.c) : aff_scale(out, &b, &a.c))
				return kparse_fail(w, c, "%s is too large", what);
			return 0;
		}
		return kparse_fail(w, c, "operator '%s' in %s: only +, - and * (affine expressions) are supported", op, what);
	}
	case CXCursor_UnaryOperator: {
		if (k.n != 1)
			return kparse_fail(w, c, "cannot read this expression");
		kparse_unop(w, c, &k, op, sizeof(op));
		int rc = kparse_affine(w, k.c[0], out, what);
		if (rc)
			return rc;
		if (!strcmp(op, "+"))
			return 0;
		if (!strcmp(op, "-")) {
			struct kaff z;
			aff_const(&z, 0);
			if (aff_combine(out, &z, out, -1))
				return kparse_fail(w, c, "%s is too large", what);
			return 0;
		}
		return kparse_fail(w, c, "operator '%s' in %s is not supported", op, what);
	}
	case CXCursor_ArraySubscriptExpr:
		return kparse_fail(w, c, "indirect access: an array element in %s is not supported", what);
	case CXCursor_CallExpr:
		return kparse_fail(w, c, "function calls are not supported");
	case CXCursor_CStyleCastExpr:
		return kparse_fail(w, c, "casts in %s are not supported", what);
	case CXCursor_FloatingLiteral:
		return kparse_fail(w, c, "a floating-point number in %s", what);
	default:
		return kparse_fail(w, c, "this expression is not supported in %s (affine in loop indices and constants)", what);
	}
}

/* --- the loop body ----------------------------------------------------------------------- */

int kparse_access(struct walk *w, CXCursor c, int write)
{
	/* a[j][i]: ArraySubscript(ArraySubscript(a, j), i) */
	CXCursor idx[KERNEL_MAX_DIMS + 1];
	int n = 0;
	CXCursor cur = kparse_bare(c);
	while (kclang.clang_getCursorKind(cur) == CXCursor_ArraySubscriptExpr) {
		struct kids k = kparse_children(cur);
		if (k.n != 2)
			return kparse_fail(w, cur, "cannot read this array access");
		if (n > KERNEL_MAX_DIMS)
			return kparse_fail(w, cur, "too many subscripts");
		idx[n++] = k.c[1];
		cur = kparse_bare(k.c[0]);
	}
	if (kclang.clang_getCursorKind(cur) != CXCursor_DeclRefExpr)
		return kparse_fail(w, cur, "only named arrays can be subscripted");
	int ai = kparse_array_of(w, kclang.clang_getCursorReferenced(cur));
	if (ai < 0)
		return kparse_fail(w, cur, "this is not an array declared in the kernel");
	struct karray *a = &w->k->array[ai];
	if (n != a->ndims)
		return kparse_fail(w, c, "'%s' has %d dimension%s but is used with %d subscript%s", a->name, a->ndims,
				   a->ndims == 1 ? "" : "s", n, n == 1 ? "" : "s");
	if (w->k->naccesses >= KERNEL_MAX_ACCESSES)
		return kparse_fail(w, c, "more than %d array accesses", KERNEL_MAX_ACCESSES);
	struct kaccess *x = &w->k->acc[w->k->naccesses];
	memset(x, 0, sizeof(*x));
	x->array = ai;
	x->write = write;
	x->pos = kparse_pos(c);
	/* idx[] is innermost first; linear = sum idx_d * prod(dims after d) */
	struct poly stride;
	poly_const(&stride, 1);
	for (int d = 0; d < n; d++) {
		int dim = a->ndims - 1 - d;
		struct kaff s, sc;
		int rc = kparse_affine(w, idx[d], &s, "an index");
		if (rc)
			return rc;
		if (aff_scale(&sc, &s, &stride) || aff_combine(&x->idx, &x->idx, &sc, 1) ||
		    poly_mul(&stride, &stride, &a->dim[dim]))
			return kparse_fail(w, c, "this index is too large");
	}
	w->k->naccesses++;
	return 0;
}

int kparse_count_flop(struct walk *w, CXCursor c, const char *op)
{
	if (!kparse_is_float(kclang.clang_getCursorType(c)))
		return 0;
	if (!strcmp(op, "+"))
		w->k->flops_add++;
	else if (!strcmp(op, "-"))
		w->k->flops_sub++;
	else if (!strcmp(op, "*"))
		w->k->flops_mul++;
	else if (!strcmp(op, "/"))
		w->k->flops_div++;
	else
		return kparse_fail(w, c, "operator '%s' is not supported: only + - * / on values", op);
	return 0;
}

static int value_of(struct walk *w, CXCursor c);

/* Arithmetic on array elements, scalars, constants and literals. */
int kparse_value(struct walk *w, CXCursor c)
{
	if (w->depth >= KERNEL_MAX_EXPR_DEPTH)
		return kparse_fail(w, c, "an expression nested deeper than %d operators (the limit)", KERNEL_MAX_EXPR_DEPTH);
	w->depth++;
	int rc = value_of(w, c);
	w->depth--;
	return rc;
}

static int value_of(struct walk *w, CXCursor c)
{
	c = kparse_bare(c);
	struct kids k = kparse_children(c);
	char op[8];
	switch (kclang.clang_getCursorKind(c)) {
	case CXCursor_IntegerLiteral:
	case CXCursor_FloatingLiteral:
		return 0;
	case CXCursor_DeclRefExpr: {
		CXCursor d = kclang.clang_getCursorReferenced(c);
		if (loop_of(w, d) >= 0 || sym_of(w, d) >= 0)
			return 0;
		int ai = kparse_array_of(w, d);
		if (ai >= 0 && w->k->array[ai].ndims == 0)
			return 0;
		if (ai >= 0)
			return kparse_fail(w, c, "array '%s' used without subscripts", w->k->array[ai].name);
		return kparse_fail(w, c, "this name is not declared in the kernel");
	}
	case CXCursor_ArraySubscriptExpr:
		return kparse_access(w, c, 0);
	case CXCursor_BinaryOperator: {
		if (k.n != 2)
			return kparse_fail(w, c, "cannot read this expression");
		kparse_binop(w, c, &k, op, sizeof(op));
		int rc;
		if ((rc = kparse_value(w, k.c[0])) || (rc = kparse_value(w, k.c[1])))
			return rc;
		if (!kparse_is_float(kclang.clang_getCursorType(c)) && strchr("+-*", op[0]) && op[1] == 0)
			return 0; /* integer arithmetic on constants: no flop */
		return kparse_count_flop(w, c, op);
	}
	case CXCursor_UnaryOperator:
		if (k.n != 1)
			return kparse_fail(w, c, "cannot read this expression");
		kparse_unop(w, c, &k, op, sizeof(op));
		if (strcmp(op, "-") && strcmp(op, "+"))
			return kparse_fail(w, c, "operator '%s' is not supported here", op);
		return kparse_value(w, k.c[0]);
	case CXCursor_CallExpr:
		return kparse_fail(w, c, "function calls are not supported");
	case CXCursor_ConditionalOperator:
		return kparse_fail(w, c, "conditional expressions (?:) are not supported");
	case CXCursor_CStyleCastExpr:
		return kparse_fail(w, c, "casts are not supported");
	default:
		return kparse_fail(w, c, "this expression is not supported (arithmetic on array elements, scalars and constants)");
	}
}
