/* The kernel reader: libclang parses the file (wrapped in a function, the constants declared),
 * and a walk over the AST accepts exactly the language of Kerncraft §2.1 and says, with
 * file:line:column, what it does not support. libclang 14 has no operator kinds, so operators
 * are read from the tokens between the operands. */
#include "model/kernel.h"
#include "model/kernel-cache.h"
#include "common/atomicfile.h"
#include <sys/stat.h>

#include <clang-c/Index.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libclang is loaded when the first kernel is read, not when archscope starts: linked, its
 * libLLVM relocations cost every command about 15 ms of page faults on a virtual machine. The
 * functions used are looked up by name into `cx`. */
#include <dlfcn.h>

#ifndef ARCHSCOPE_LIBCLANG
#define ARCHSCOPE_LIBCLANG "libclang.so"
#endif

#define CLANG_FUNCTIONS(X) \
	X(clang_Cursor_Evaluate) \
	X(clang_Cursor_isNull) \
	X(clang_EvalResult_dispose) \
	X(clang_EvalResult_getAsLongLong) \
	X(clang_createIndex) \
	X(clang_disposeDiagnostic) \
	X(clang_disposeIndex) \
	X(clang_disposeString) \
	X(clang_disposeTokens) \
	X(clang_disposeTranslationUnit) \
	X(clang_equalCursors) \
	X(clang_getArrayElementType) \
	X(clang_getArraySize) \
	X(clang_getCString) \
	X(clang_getCanonicalType) \
	X(clang_getCursorExtent) \
	X(clang_getCursorKind) \
	X(clang_getCursorLocation) \
	X(clang_getCursorReferenced) \
	X(clang_getCursorSemanticParent) \
	X(clang_getCursorSpelling) \
	X(clang_getCursorType) \
	X(clang_getDiagnostic) \
	X(clang_getDiagnosticLocation) \
	X(clang_getDiagnosticSeverity) \
	X(clang_getDiagnosticSpelling) \
	X(clang_getFileLocation) \
	X(clang_getNullCursor) \
	X(clang_getNumDiagnostics) \
	X(clang_getPresumedLocation) \
	X(clang_getRangeEnd) \
	X(clang_getRangeStart) \
	X(clang_getTokenKind) \
	X(clang_getTokenLocation) \
	X(clang_getTokenSpelling) \
	X(clang_getTranslationUnitCursor) \
	X(clang_getTypeSpelling) \
	X(clang_isExpression) \
	X(clang_parseTranslationUnit2) \
	X(clang_tokenize) \
	X(clang_visitChildren)

static struct {
#define X(f) __typeof__(f) *f;
	CLANG_FUNCTIONS(X)
#undef X
} cx;

static int clang_loaded(struct as_error *err)
{
	static int state; /* 0 not tried, 1 loaded, -1 failed */
	static char why[300], lib[256];
	if (state == 0) {
		/* ARCHSCOPE_LIBCLANG names another libclang (a different LLVM install). */
		const char *env = getenv("ARCHSCOPE_LIBCLANG");
		snprintf(lib, sizeof(lib), "%s", env && *env ? env : ARCHSCOPE_LIBCLANG);
		void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
		const char *miss = NULL;
		if (!h) {
			snprintf(why, sizeof(why), "%s", dlerror());
		} else {
#define X(f) if (!miss && !(*(void **)&cx.f = dlsym(h, #f))) miss = #f;
			CLANG_FUNCTIONS(X)
#undef X
			if (miss)
				snprintf(why, sizeof(why), "it has no function %s", miss);
		}
		state = h && !miss ? 1 : -1;
	}
	if (state < 0)
		return as_error_set(err, -ENOSYS, "cannot load libclang '%s': %s; install it with scripts/setup.sh (Debian libclang-19-dev)",
				    lib, why);
	return 0;
}

struct walk {
	struct kernel *k;
	CXTranslationUnit tu;
	struct as_error *err;
	const char *file;
	int nest_done;
	int in_body;
	/* the extern declarations of the constants: their cursors identify symbol references */
	CXCursor loopvar[KERNEL_MAX_LOOPS];
	CXCursor arraydecl[KERNEL_MAX_ARRAYS];
};

static struct kpos pos_of(CXCursor c)
{
	CXString f;
	unsigned line = 0, col = 0;
	cx.clang_getPresumedLocation(cx.clang_getCursorLocation(c), &f, &line, &col);
	cx.clang_disposeString(f);
	return (struct kpos){ (int)line, (int)col };
}

static int fail(struct walk *w, CXCursor c, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct walk *w, CXCursor c, const char *fmt, ...)
{
	if (w->err && w->err->code)
		return w->err->code; /* keep the first, innermost message */
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	struct kpos p = pos_of(c);
	return as_error_set(w->err, -EINVAL, "%s:%d:%d: %s", w->file, p.line, p.col, msg);
}

/* --- cursor helpers ---------------------------------------------------------------------- */

struct kids {
	int n;
	CXCursor c[8];
};

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	struct kids *k = d;
	if (k->n < 8)
		k->c[k->n] = c;
	k->n++;
	return CXChildVisit_Continue;
}

static struct kids children(CXCursor c)
{
	struct kids k = { 0 };
	cx.clang_visitChildren(c, collect, &k);
	return k;
}

/* Strips implicit casts and parentheses. */
static CXCursor bare(CXCursor c)
{
	for (;;) {
		enum CXCursorKind kind = cx.clang_getCursorKind(c);
		if (kind != CXCursor_UnexposedExpr && kind != CXCursor_ParenExpr)
			return c;
		struct kids k = children(c);
		if (k.n != 1)
			return c;
		c = k.c[0];
	}
}

static unsigned offset_of(CXSourceLocation l)
{
	unsigned off = 0;
	cx.clang_getFileLocation(l, NULL, NULL, NULL, &off);
	return off;
}

/* The operator of a binary or unary expression: the first token at or after `after` (an
 * offset in the buffer) inside the cursor's extent; for unary, after = 0 gives the first token. */
static void op_token(struct walk *w, CXCursor c, unsigned after, int last, char *out, size_t len)
{
	CXToken *t = NULL;
	unsigned n = 0;
	out[0] = 0;
	cx.clang_tokenize(w->tu, cx.clang_getCursorExtent(c), &t, &n);
	for (unsigned i = 0; i < n; i++) {
		unsigned idx = last ? n - 1 - i : i;
		if (!last && offset_of(cx.clang_getTokenLocation(w->tu, t[idx])) < after)
			continue;
		if (cx.clang_getTokenKind(t[idx]) != CXToken_Punctuation)
			continue;
		CXString s = cx.clang_getTokenSpelling(w->tu, t[idx]);
		snprintf(out, len, "%s", cx.clang_getCString(s));
		cx.clang_disposeString(s);
		break;
	}
	if (t)
		cx.clang_disposeTokens(w->tu, t, n);
}

static void binop(struct walk *w, CXCursor c, const struct kids *k, char *op, size_t len)
{
	unsigned end = offset_of(cx.clang_getRangeEnd(cx.clang_getCursorExtent(k->c[0])));
	op_token(w, c, end, 0, op, len);
}

/* Prefix or postfix operator of a unary expression. */
static void unop(struct walk *w, CXCursor c, const struct kids *k, char *op, size_t len)
{
	unsigned start = offset_of(cx.clang_getRangeStart(cx.clang_getCursorExtent(c)));
	unsigned sub = offset_of(cx.clang_getRangeStart(cx.clang_getCursorExtent(k->c[0])));
	if (sub > start)
		op_token(w, c, 0, 0, op, len);
	else
		op_token(w, c, 0, 1, op, len);
}

static void spelling(CXCursor c, char *out, size_t len)
{
	CXString s = cx.clang_getCursorSpelling(c);
	snprintf(out, len, "%s", cx.clang_getCString(s));
	cx.clang_disposeString(s);
}

static int is_float_type(CXType t)
{
	t = cx.clang_getCanonicalType(t);
	return t.kind == CXType_Double || t.kind == CXType_Float;
}

/* --- affine expressions (indices, bounds) ----------------------------------------------- */

static int aff_const(struct kaff *a, int64_t v)
{
	memset(a, 0, sizeof(*a));
	poly_const(&a->c, v);
	return 0;
}

static int aff_has_loops(const struct kaff *a, int nloops)
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
		if (cx.clang_equalCursors(decl, w->loopvar[l]))
			return l;
	return -1;
}

static int sym_of(struct walk *w, CXCursor decl)
{
	char name[KERNEL_NAME_LEN];
	spelling(decl, name, sizeof(name));
	CXCursor parent = cx.clang_getCursorSemanticParent(decl);
	if (cx.clang_getCursorKind(parent) != CXCursor_TranslationUnit)
		return -1;
	return kernel_sym_find(w->k, name);
}

/* what: "an index", "a loop bound" */
static int affine(struct walk *w, CXCursor c, struct kaff *out, const char *what)
{
	c = bare(c);
	enum CXCursorKind kind = cx.clang_getCursorKind(c);
	struct kids k = children(c);
	char op[8];
	switch (kind) {
	case CXCursor_IntegerLiteral: {
		CXEvalResult r = cx.clang_Cursor_Evaluate(c);
		if (!r)
			return fail(w, c, "cannot read this integer");
		long long v = cx.clang_EvalResult_getAsLongLong(r);
		cx.clang_EvalResult_dispose(r);
		return aff_const(out, v);
	}
	case CXCursor_DeclRefExpr: {
		CXCursor d = cx.clang_getCursorReferenced(c);
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
		spelling(c, name, sizeof(name));
		return fail(w, c, "%s uses '%s', which is neither a loop index of an enclosing loop nor a constant", what, name);
	}
	case CXCursor_BinaryOperator: {
		if (k.n != 2)
			return fail(w, c, "cannot read this expression");
		binop(w, c, &k, op, sizeof(op));
		struct kaff a, b;
		int rc;
		if ((rc = affine(w, k.c[0], &a, what)) || (rc = affine(w, k.c[1], &b, what)))
			return rc;
		if (!strcmp(op, "+") || !strcmp(op, "-")) {
			if (aff_combine(out, &a, &b, op[0] == '+' ? 1 : -1))
				return fail(w, c, "%s is too large", what);
			return 0;
		}
		if (!strcmp(op, "*")) {
			int la = aff_has_loops(&a, w->k->nloops), lb = aff_has_loops(&b, w->k->nloops);
			if (la && lb)
				return fail(w, c, "%s multiplies loop indices: only affine indices are supported", what);
			if (la ? aff_scale(out, &a, &b.c) : aff_scale(out, &b, &a.c))
				return fail(w, c, "%s is too large", what);
			return 0;
		}
		return fail(w, c, "operator '%s' in %s: only +, - and * (affine expressions) are supported", op, what);
	}
	case CXCursor_UnaryOperator: {
		if (k.n != 1)
			return fail(w, c, "cannot read this expression");
		unop(w, c, &k, op, sizeof(op));
		int rc = affine(w, k.c[0], out, what);
		if (rc)
			return rc;
		if (!strcmp(op, "+"))
			return 0;
		if (!strcmp(op, "-")) {
			struct kaff z;
			aff_const(&z, 0);
			if (aff_combine(out, &z, out, -1))
				return fail(w, c, "%s is too large", what);
			return 0;
		}
		return fail(w, c, "operator '%s' in %s is not supported", op, what);
	}
	case CXCursor_ArraySubscriptExpr:
		return fail(w, c, "indirect access: an array element in %s is not supported", what);
	case CXCursor_CallExpr:
		return fail(w, c, "function calls are not supported");
	case CXCursor_CStyleCastExpr:
		return fail(w, c, "casts in %s are not supported", what);
	case CXCursor_FloatingLiteral:
		return fail(w, c, "a floating-point number in %s", what);
	default:
		return fail(w, c, "this expression is not supported in %s (affine in loop indices and constants)", what);
	}
}

/* --- declarations ------------------------------------------------------------------------ */

static int elsize_of(struct walk *w, CXCursor at, CXType t, int *size)
{
	CXType e = cx.clang_getCanonicalType(t);
	if (e.kind == CXType_Double)
		*size = 8;
	else if (e.kind == CXType_Float)
		*size = 4;
	else if (e.kind == CXType_Pointer)
		return fail(w, at, "pointers are not supported: declare arrays with their sizes (double a[N])");
	else {
		CXString s = cx.clang_getTypeSpelling(t);
		int rc = fail(w, at, "type '%s' is not supported: arrays and scalars are double or float", cx.clang_getCString(s));
		cx.clang_disposeString(s);
		return rc;
	}
	return 0;
}

static int declare(struct walk *w, CXCursor v)
{
	struct kernel *k = w->k;
	if (k->narrays >= KERNEL_MAX_ARRAYS)
		return fail(w, v, "more than %d variables", KERNEL_MAX_ARRAYS);
	struct karray *a = &k->array[k->narrays];
	memset(a, 0, sizeof(*a));
	spelling(v, a->name, sizeof(a->name));
	a->pos = pos_of(v);
	CXType t = cx.clang_getCursorType(v);
	/* libclang lists the size expressions innermost first: a[M][N+1] gives N+1, M */
	struct kids kid = children(v);
	CXCursor sizes[KERNEL_MAX_DIMS];
	int nsizes = 0;
	for (int i = 0; i < kid.n && i < 8; i++)
		if (cx.clang_isExpression(cx.clang_getCursorKind(kid.c[i])) && nsizes < KERNEL_MAX_DIMS)
			sizes[nsizes++] = kid.c[i];
	int vla[KERNEL_MAX_DIMS] = { 0 };
	while (t.kind == CXType_ConstantArray || t.kind == CXType_VariableArray || t.kind == CXType_IncompleteArray) {
		if (a->ndims >= KERNEL_MAX_DIMS)
			return fail(w, v, "more than %d dimensions", KERNEL_MAX_DIMS);
		if (t.kind == CXType_IncompleteArray)
			return fail(w, v, "array '%s' needs a size", a->name);
		if (t.kind == CXType_ConstantArray)
			poly_const(&a->dim[a->ndims], cx.clang_getArraySize(t));
		else
			vla[a->ndims] = 1;
		a->ndims++;
		t = cx.clang_getArrayElementType(t);
	}
	for (int d = 0; d < a->ndims; d++) {
		if (!vla[d])
			continue;
		if (nsizes != a->ndims)
			return fail(w, v, "cannot read the sizes of '%s'", a->name);
		struct kaff sz;
		int rc = affine(w, sizes[a->ndims - 1 - d], &sz, "an array size");
		if (rc)
			return rc;
		if (aff_has_loops(&sz, KERNEL_MAX_LOOPS))
			return fail(w, sizes[a->ndims - 1 - d], "array sizes must be constants");
		a->dim[d] = sz.c;
	}
	int rc = elsize_of(w, v, t, &a->elsize);
	if (rc)
		return rc;
	w->arraydecl[k->narrays] = v;
	k->narrays++;
	return 0;
}

static int array_of(struct walk *w, CXCursor decl)
{
	for (int i = 0; i < w->k->narrays; i++)
		if (cx.clang_equalCursors(decl, w->arraydecl[i]))
			return i;
	return -1;
}

/* --- the loop body ----------------------------------------------------------------------- */

static int add_access(struct walk *w, CXCursor c, int write)
{
	/* a[j][i]: ArraySubscript(ArraySubscript(a, j), i) */
	CXCursor idx[KERNEL_MAX_DIMS + 1];
	int n = 0;
	CXCursor cur = bare(c);
	while (cx.clang_getCursorKind(cur) == CXCursor_ArraySubscriptExpr) {
		struct kids k = children(cur);
		if (k.n != 2)
			return fail(w, cur, "cannot read this array access");
		if (n > KERNEL_MAX_DIMS)
			return fail(w, cur, "too many subscripts");
		idx[n++] = k.c[1];
		cur = bare(k.c[0]);
	}
	if (cx.clang_getCursorKind(cur) != CXCursor_DeclRefExpr)
		return fail(w, cur, "only named arrays can be subscripted");
	int ai = array_of(w, cx.clang_getCursorReferenced(cur));
	if (ai < 0)
		return fail(w, cur, "this is not an array declared in the kernel");
	struct karray *a = &w->k->array[ai];
	if (n != a->ndims)
		return fail(w, c, "'%s' has %d dimension%s but is used with %d subscript%s", a->name, a->ndims,
			    a->ndims == 1 ? "" : "s", n, n == 1 ? "" : "s");
	if (w->k->naccesses >= KERNEL_MAX_ACCESSES)
		return fail(w, c, "more than %d array accesses", KERNEL_MAX_ACCESSES);
	struct kaccess *x = &w->k->acc[w->k->naccesses];
	memset(x, 0, sizeof(*x));
	x->array = ai;
	x->write = write;
	x->pos = pos_of(c);
	/* idx[] is innermost first; linear = sum idx_d * prod(dims after d) */
	struct poly stride;
	poly_const(&stride, 1);
	for (int d = 0; d < n; d++) {
		int dim = a->ndims - 1 - d;
		struct kaff s, sc;
		int rc = affine(w, idx[d], &s, "an index");
		if (rc)
			return rc;
		if (aff_scale(&sc, &s, &stride) || aff_combine(&x->idx, &x->idx, &sc, 1) ||
		    poly_mul(&stride, &stride, &a->dim[dim]))
			return fail(w, c, "this index is too large");
	}
	w->k->naccesses++;
	return 0;
}

static int value(struct walk *w, CXCursor c);

static int count_flop(struct walk *w, CXCursor c, const char *op)
{
	if (!is_float_type(cx.clang_getCursorType(c)))
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
		return fail(w, c, "operator '%s' is not supported: only + - * / on values", op);
	return 0;
}

/* A right-hand side: arithmetic on array elements, scalars, constants and literals. */
static int value(struct walk *w, CXCursor c)
{
	c = bare(c);
	struct kids k = children(c);
	char op[8];
	switch (cx.clang_getCursorKind(c)) {
	case CXCursor_IntegerLiteral:
	case CXCursor_FloatingLiteral:
		return 0;
	case CXCursor_DeclRefExpr: {
		CXCursor d = cx.clang_getCursorReferenced(c);
		if (loop_of(w, d) >= 0 || sym_of(w, d) >= 0)
			return 0;
		int ai = array_of(w, d);
		if (ai >= 0 && w->k->array[ai].ndims == 0)
			return 0;
		if (ai >= 0)
			return fail(w, c, "array '%s' used without subscripts", w->k->array[ai].name);
		return fail(w, c, "this name is not declared in the kernel");
	}
	case CXCursor_ArraySubscriptExpr:
		return add_access(w, c, 0);
	case CXCursor_BinaryOperator: {
		if (k.n != 2)
			return fail(w, c, "cannot read this expression");
		binop(w, c, &k, op, sizeof(op));
		int rc;
		if ((rc = value(w, k.c[0])) || (rc = value(w, k.c[1])))
			return rc;
		if (!is_float_type(cx.clang_getCursorType(c)) && strchr("+-*", op[0]) && op[1] == 0)
			return 0; /* integer arithmetic on constants: no flop */
		return count_flop(w, c, op);
	}
	case CXCursor_UnaryOperator:
		if (k.n != 1)
			return fail(w, c, "cannot read this expression");
		unop(w, c, &k, op, sizeof(op));
		if (strcmp(op, "-") && strcmp(op, "+"))
			return fail(w, c, "operator '%s' is not supported here", op);
		return value(w, k.c[0]);
	case CXCursor_CallExpr:
		return fail(w, c, "function calls are not supported");
	case CXCursor_ConditionalOperator:
		return fail(w, c, "conditional expressions (?:) are not supported");
	case CXCursor_CStyleCastExpr:
		return fail(w, c, "casts are not supported");
	default:
		return fail(w, c, "this expression is not supported (arithmetic on array elements, scalars and constants)");
	}
}

static int statement(struct walk *w, CXCursor s)
{
	struct kids k = children(s);
	char op[8];
	switch (cx.clang_getCursorKind(s)) {
	case CXCursor_BinaryOperator:
	case CXCursor_CompoundAssignOperator: {
		if (k.n != 2)
			return fail(w, s, "cannot read this statement");
		binop(w, s, &k, op, sizeof(op));
		int compound = cx.clang_getCursorKind(s) == CXCursor_CompoundAssignOperator;
		if (!compound && strcmp(op, "="))
			return fail(w, s, "a statement must be an assignment (=, +=, -=, *=, /=)");
		CXCursor lhs = bare(k.c[0]);
		int rc = value(w, k.c[1]);
		if (rc)
			return rc;
		if (cx.clang_getCursorKind(lhs) == CXCursor_ArraySubscriptExpr) {
			if (compound && (rc = add_access(w, lhs, 0)))
				return rc;
			if ((rc = add_access(w, lhs, 1)))
				return rc;
		} else if (cx.clang_getCursorKind(lhs) == CXCursor_DeclRefExpr) {
			CXCursor d = cx.clang_getCursorReferenced(lhs);
			int ai = array_of(w, d);
			if (ai < 0 || w->k->array[ai].ndims != 0)
				return fail(w, lhs, "only array elements and scalars declared in the kernel can be assigned");
		} else {
			return fail(w, lhs, "only array elements and scalars can be assigned");
		}
		if (compound) {
			char base[2] = { op[0], 0 };
			if ((rc = count_flop(w, s, base)))
				return rc;
		}
		w->k->statements++;
		return 0;
	}
	case CXCursor_DeclStmt:
		return fail(w, s, "declarations inside the loop are not supported: declare scalars before the loop");
	case CXCursor_IfStmt:
		return fail(w, s, "if statements are not supported");
	case CXCursor_CallExpr:
		return fail(w, s, "function calls are not supported");
	case CXCursor_ForStmt:
		return fail(w, s, "only one loop per level: the innermost loop holds only assignments");
	case CXCursor_WhileStmt:
	case CXCursor_DoStmt:
		return fail(w, s, "while and do loops are not supported: use for loops");
	case CXCursor_UnaryOperator:
		return fail(w, s, "increments are not supported in the body: write an assignment");
	case CXCursor_NullStmt:
		return 0;
	default:
		return fail(w, s, "this statement is not supported (assignments only)");
	}
}

struct stmts {
	int n;
	CXCursor c[1024];
};

static enum CXChildVisitResult gather(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	struct stmts *s = d;
	if (s->n < 1024)
		s->c[s->n] = c;
	s->n++;
	return CXChildVisit_Continue;
}

static int loop(struct walk *w, CXCursor f);

/* A loop body: exactly one for loop (an outer level), or assignments (the innermost level). */
static int body(struct walk *w, CXCursor b)
{
	static __thread struct stmts s;
	if (cx.clang_getCursorKind(b) != CXCursor_CompoundStmt)
		return cx.clang_getCursorKind(b) == CXCursor_ForStmt ? loop(w, b) : statement(w, b);
	s.n = 0;
	cx.clang_visitChildren(b, gather, &s);
	if (s.n > 1024)
		return fail(w, b, "more than 1024 statements in one block");
	int nfor = 0;
	for (int i = 0; i < s.n; i++)
		nfor += cx.clang_getCursorKind(s.c[i]) == CXCursor_ForStmt;
	if (nfor == 0) {
		int n = s.n;
		CXCursor copy[1024];
		memcpy(copy, s.c, sizeof(CXCursor) * (size_t)n);
		for (int i = 0; i < n; i++) {
			int rc = statement(w, copy[i]);
			if (rc)
				return rc;
		}
		return 0;
	}
	if (s.n != 1) {
		for (int i = 0; i < s.n; i++)
			if (cx.clang_getCursorKind(s.c[i]) != CXCursor_ForStmt)
				return fail(w, s.c[i], "only the innermost loop may hold statements (one loop per level)");
		return fail(w, s.c[1], "only one loop per level");
	}
	return loop(w, s.c[0]);
}

static int loop(struct walk *w, CXCursor f)
{
	struct kernel *k = w->k;
	if (k->nloops >= KERNEL_MAX_LOOPS)
		return fail(w, f, "more than %d nested loops", KERNEL_MAX_LOOPS);
	struct kids c = children(f);
	if (c.n != 4)
		return fail(w, f, "a loop needs all three parts: for (int i = START; i < END; i++)");
	struct kloop *L = &k->loop[k->nloops];
	memset(L, 0, sizeof(*L));
	L->pos = pos_of(f);
	/* init: a declaration of the index */
	if (cx.clang_getCursorKind(c.c[0]) != CXCursor_DeclStmt)
		return fail(w, c.c[0], "declare the loop index in the loop: for (int i = START; ...)");
	struct kids d = children(c.c[0]);
	if (d.n != 1 || cx.clang_getCursorKind(d.c[0]) != CXCursor_VarDecl)
		return fail(w, c.c[0], "declare exactly one loop index");
	CXCursor var = d.c[0];
	CXType vt = cx.clang_getCanonicalType(cx.clang_getCursorType(var));
	if (vt.kind < CXType_Char_U || vt.kind > CXType_LongLong || vt.kind == CXType_Bool)
		return fail(w, var, "the loop index must be an integer");
	spelling(var, L->var, sizeof(L->var));
	struct kids init = children(var);
	if (init.n != 1)
		return fail(w, var, "the loop index needs a start value");
	struct kaff a;
	int rc = affine(w, init.c[init.n - 1], &a, "a loop bound");
	if (rc)
		return rc;
	if (aff_has_loops(&a, k->nloops))
		return fail(w, init.c[0], "loop bounds that depend on other loop indices are not supported");
	L->start = a.c;
	/* condition: i < END or i <= END */
	CXCursor cond = bare(c.c[1]);
	struct kids cc = children(cond);
	char op[8];
	if (cx.clang_getCursorKind(cond) != CXCursor_BinaryOperator || cc.n != 2)
		return fail(w, cond, "the loop condition must be 'index < END' or 'index <= END'");
	binop(w, cond, &cc, op, sizeof(op));
	CXCursor lhs = bare(cc.c[0]);
	if (cx.clang_getCursorKind(lhs) != CXCursor_DeclRefExpr || !cx.clang_equalCursors(cx.clang_getCursorReferenced(lhs), var))
		return fail(w, cond, "the loop condition must compare this loop's index: '%s < END'", L->var);
	if (strcmp(op, "<") && strcmp(op, "<="))
		return fail(w, cond, "the loop condition must be '<' or '<=' (increasing loops only), not '%s'", op);
	if ((rc = affine(w, cc.c[1], &a, "a loop bound")))
		return rc;
	if (aff_has_loops(&a, k->nloops))
		return fail(w, cc.c[1], "loop bounds that depend on other loop indices are not supported");
	L->end = a.c;
	if (!strcmp(op, "<=")) {
		struct poly one;
		poly_const(&one, 1);
		if (poly_add(&L->end, &L->end, &one))
			return fail(w, cond, "the loop bound is too large");
	}
	/* increment: i++, ++i, i += C, i = i + C */
	CXCursor inc = bare(c.c[2]);
	struct kids ic = children(inc);
	enum CXCursorKind ik = cx.clang_getCursorKind(inc);
	L->step = 0;
	if (ic.n >= 1) {
		CXCursor iv = bare(ic.c[0]);
		int on_var = cx.clang_getCursorKind(iv) == CXCursor_DeclRefExpr &&
			     cx.clang_equalCursors(cx.clang_getCursorReferenced(iv), var);
		if (ik == CXCursor_UnaryOperator && on_var) {
			unop(w, inc, &ic, op, sizeof(op));
			if (!strcmp(op, "++"))
				L->step = 1;
		} else if (ik == CXCursor_CompoundAssignOperator && on_var && ic.n == 2) {
			binop(w, inc, &ic, op, sizeof(op));
			struct kaff s;
			int64_t v;
			if (!strcmp(op, "+=") && !affine(w, ic.c[1], &s, "a loop step") && !aff_has_loops(&s, KERNEL_MAX_LOOPS) &&
			    poly_is_const(&s.c, &v))
				L->step = v;
			if (w->err && w->err->code)
				return w->err->code;
		}
	}
	if (L->step <= 0)
		return fail(w, inc, "the loop step must be a positive constant: %s++ or %s += C", L->var, L->var);
	w->loopvar[k->nloops] = var;
	k->nloops++;
	return body(w, c.c[3]);
}

static int top(struct walk *w, CXCursor fn)
{
	struct stmts *s = malloc(sizeof(*s));
	if (!s)
		return as_error_set(w->err, -ENOMEM, "out of memory");
	s->n = 0;
	cx.clang_visitChildren(fn, gather, s);
	CXCursor bodyc = { 0 };
	int found = 0, rc = 0;
	for (int i = 0; i < s->n && i < 1024; i++)
		if (cx.clang_getCursorKind(s->c[i]) == CXCursor_CompoundStmt) {
			bodyc = s->c[i];
			found = 1;
		}
	if (!found) {
		free(s);
		return as_error_set(w->err, -EINVAL, "%s: cannot find the kernel's statements", w->file);
	}
	s->n = 0;
	cx.clang_visitChildren(bodyc, gather, s);
	for (int i = 0; i < s->n && i < 1024 && !rc; i++) {
		CXCursor c = s->c[i];
		switch (cx.clang_getCursorKind(c)) {
		case CXCursor_DeclStmt: {
			if (w->k->nloops)
				rc = fail(w, c, "declarations must come before the loop nest");
			struct stmts *d = malloc(sizeof(*d));
			if (!d) {
				rc = as_error_set(w->err, -ENOMEM, "out of memory");
				break;
			}
			d->n = 0;
			cx.clang_visitChildren(c, gather, d);
			for (int j = 0; j < d->n && j < 1024 && !rc; j++)
				rc = cx.clang_getCursorKind(d->c[j]) == CXCursor_VarDecl ? declare(w, d->c[j])
										   : fail(w, d->c[j], "only variable declarations are supported");
			free(d);
			break;
		}
		case CXCursor_ForStmt:
			if (w->nest_done)
				rc = fail(w, c, "only one loop nest per kernel");
			else
				rc = loop(w, c);
			w->nest_done = 1;
			break;
		case CXCursor_NullStmt:
			break;
		default:
			rc = fail(w, c, "only declarations and one loop nest are allowed at the top level");
		}
	}
	if (s->n > 1024 && !rc)
		rc = as_error_set(w->err, -EINVAL, "%s: too many top-level statements", w->file);
	free(s);
	if (!rc && !w->nest_done)
		rc = as_error_set(w->err, -EINVAL, "%s: no loop nest: a kernel is declarations followed by one for loop nest", w->file);
	if (!rc && w->k->naccesses == 0)
		rc = as_error_set(w->err, -EINVAL, "%s: the loop body accesses no array", w->file);
	return rc;
}

/* --- the libclang side ------------------------------------------------------------------- */

#define WRAP_FN "archscope_kernel_body_"

static char *wrap(const char *name, const char *text, size_t len, const struct kernel *k, size_t *outlen)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	if (!f)
		return NULL;
	for (int s = 0; s < k->nsyms; s++)
		fprintf(f, "extern const long %s;\n", k->sym[s]);
	fprintf(f, "void " WRAP_FN "(void) {\n#line 1 \"");
	for (const char *p = name; *p; p++)
		fprintf(f, (*p == '"' || *p == '\\') ? "\\%c" : "%c", *p);
	fprintf(f, "\"\n");
	fwrite(text, 1, len, f);
	fprintf(f, "\n}\n");
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	*outlen = n;
	return buf;
}

static CXTranslationUnit translate(CXIndex idx, const char *src, size_t n)
{
	static const char *const args[] = { "-xc", "-std=c99", "-Wno-vla", "-Wno-unused-value", "-ferror-limit=0", "-nostdinc",
					     /* clang 16 on makes an undeclared function an error; the reader names calls itself */
					     "-Wno-implicit-function-declaration" };
	struct CXUnsavedFile u = { "archscope-kernel.c", src, (unsigned long)n };
	CXTranslationUnit tu = NULL;
	if (cx.clang_parseTranslationUnit2(idx, "archscope-kernel.c", args, sizeof(args) / sizeof(args[0]), &u, 1,
					CXTranslationUnit_None, &tu) != CXError_Success)
		return NULL;
	return tu;
}

static enum CXChildVisitResult find_fn(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	char name[64];
	spelling(c, name, sizeof(name));
	if (cx.clang_getCursorKind(c) == CXCursor_FunctionDecl && !strcmp(name, WRAP_FN)) {
		*(CXCursor *)d = c;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

int kernel_parse_buffer(struct kernel *k, const char *name, const char *text, size_t len, struct as_error *err)
{
	memset(k, 0, sizeof(*k));
	snprintf(k->file, sizeof(k->file), "%s", name);
	if (memchr(text, 0, len))
		return as_error_set(err, -EINVAL, "%s: not a C source file (it contains a NUL byte)", name);
	int lrc = clang_loaded(err);
	if (lrc)
		return lrc;
	CXIndex idx = cx.clang_createIndex(0, 0);
	if (!idx)
		return as_error_set(err, -ENOMEM, "cannot start libclang");
	int rc = 0;
	CXTranslationUnit tu = NULL;
	/* Two passes: the first finds the undeclared names, which are the kernel's constants; the
	 * second parses with them declared. */
	for (int pass = 0; pass < 2 && !rc; pass++) {
		size_t n = 0;
		char *src = wrap(name, text, len, k, &n);
		if (!src) {
			rc = as_error_set(err, -ENOMEM, "out of memory");
			break;
		}
		if (tu)
			cx.clang_disposeTranslationUnit(tu);
		tu = translate(idx, src, n);
		free(src);
		if (!tu) {
			rc = as_error_set(err, -EINVAL, "%s: libclang cannot parse this file", name);
			break;
		}
		unsigned nd = cx.clang_getNumDiagnostics(tu);
		int first_error = -1;
		for (unsigned i = 0; i < nd; i++) {
			CXDiagnostic d = cx.clang_getDiagnostic(tu, i);
			enum CXDiagnosticSeverity sev = cx.clang_getDiagnosticSeverity(d);
			CXString s = cx.clang_getDiagnosticSpelling(d);
			const char *msg = cx.clang_getCString(s);
			const char *pre = "use of undeclared identifier '";
			if (pass == 0 && sev >= CXDiagnostic_Error && !strncmp(msg, pre, strlen(pre))) {
				char sym[KERNEL_NAME_LEN];
				snprintf(sym, sizeof(sym), "%s", msg + strlen(pre));
				char *q = strchr(sym, '\'');
				if (q)
					*q = 0;
				if (kernel_sym_find(k, sym) < 0) {
					if (k->nsyms >= POLY_MAX_SYMS) {
						rc = as_error_set(err, -EINVAL, "%s: more than %d constants", name, POLY_MAX_SYMS);
					} else {
						snprintf(k->sym[k->nsyms], KERNEL_NAME_LEN, "%s", sym);
						CXString f;
						unsigned line, col;
						cx.clang_getPresumedLocation(cx.clang_getDiagnosticLocation(d), &f, &line, &col);
						cx.clang_disposeString(f);
						k->sym_pos[k->nsyms] = (struct kpos){ (int)line, (int)col };
						k->nsyms++;
					}
				}
			} else if (sev >= CXDiagnostic_Error && first_error < 0) {
				first_error = (int)i;
			}
			cx.clang_disposeString(s);
			cx.clang_disposeDiagnostic(d);
		}
		/* in the first pass other errors may follow from the missing declarations */
		if (!rc && first_error >= 0 && (pass == 1 || k->nsyms == 0)) {
			CXDiagnostic d = cx.clang_getDiagnostic(tu, (unsigned)first_error);
			CXString s = cx.clang_getDiagnosticSpelling(d);
			CXString f;
			unsigned line, col;
			cx.clang_getPresumedLocation(cx.clang_getDiagnosticLocation(d), &f, &line, &col);
			rc = as_error_set(err, -EINVAL, "%s:%u:%u: %s", name, line, col, cx.clang_getCString(s));
			cx.clang_disposeString(f);
			cx.clang_disposeString(s);
			cx.clang_disposeDiagnostic(d);
		}
		if (pass == 0 && k->nsyms == 0 && !rc)
			break; /* no constants: the first parse is the one */
	}
	if (!rc) {
		CXCursor fn = cx.clang_getNullCursor();
		cx.clang_visitChildren(cx.clang_getTranslationUnitCursor(tu), find_fn, &fn);
		struct walk *w = calloc(1, sizeof(*w));
		if (!w) {
			rc = as_error_set(err, -ENOMEM, "out of memory");
		} else {
			*w = (struct walk){ .k = k, .tu = tu, .err = err, .file = name };
			if (cx.clang_Cursor_isNull(fn))
				rc = as_error_set(err, -EINVAL, "%s: cannot find the kernel's statements", name);
			else
				rc = top(w, fn);
			free(w);
		}
	}
	if (tu)
		cx.clang_disposeTranslationUnit(tu);
	cx.clang_disposeIndex(idx);
	return rc;
}

int kernel_parse_file(struct kernel *k, const char *path, struct as_error *err)
{
	struct stat st;
	if (stat(path, &st) == 0 && st.st_size > (64 << 20))
		return as_error_set(err, -EFBIG, "kernel '%s' is larger than 64 MiB", path);
	size_t len = 0;
	char *buf = file_read_all(path, &len);
	if (!buf) {
		char b[128];
		return as_error_set(err, -errno, "cannot open kernel '%s': %s", path, as_strerror(errno, b, sizeof(b)));
	}
	const char *text = buf ? buf : "";
	int rc = 0;
	if (!kernel_cache_get(k, path, text, len) && (rc = kernel_parse_buffer(k, path, text, len, err)) == 0)
		kernel_cache_put(k, text, len);
	free(buf);
	return rc;
}
