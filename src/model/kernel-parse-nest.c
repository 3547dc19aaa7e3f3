/* The kernel reader's walk over the statements: the declarations of arrays and scalars, the one
 * loop nest (start, end and step of each loop) and the assignments of its innermost body. */
#include "model/kernel-parse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* --- declarations ------------------------------------------------------------------------ */

static int elsize_of(struct walk *w, CXCursor at, CXType t, int *size)
{
	CXType e = kclang.clang_getCanonicalType(t);
	if (e.kind == CXType_Double)
		*size = 8;
	else if (e.kind == CXType_Float)
		*size = 4;
	else if (e.kind == CXType_Pointer)
		return kparse_fail(w, at, "pointers are not supported: declare arrays with their sizes (double a[N])");
	else {
		CXString s = kclang.clang_getTypeSpelling(t);
		int rc = kparse_fail(w, at, "type '%s' is not supported: arrays and scalars are double or float",
				     kclang.clang_getCString(s));
		kclang.clang_disposeString(s);
		return rc;
	}
	return 0;
}

static int declare(struct walk *w, CXCursor v)
{
	struct kernel *k = w->k;
	if (k->narrays >= KERNEL_MAX_ARRAYS)
		return kparse_fail(w, v, "more than %d variables", KERNEL_MAX_ARRAYS);
	struct karray *a = &k->array[k->narrays];
	memset(a, 0, sizeof(*a));
	kparse_spelling(v, a->name, sizeof(a->name));
	a->pos = kparse_pos(v);
	CXType t = kclang.clang_getCursorType(v);
	/* libclang lists the size expressions innermost first: a[M][N+1] gives N+1, M */
	struct kids kid = kparse_children(v);
	CXCursor sizes[KERNEL_MAX_DIMS];
	int nsizes = 0;
	for (int i = 0; i < kid.n && i < 8; i++)
		if (kclang.clang_isExpression(kclang.clang_getCursorKind(kid.c[i])) && nsizes < KERNEL_MAX_DIMS)
			sizes[nsizes++] = kid.c[i];
	int vla[KERNEL_MAX_DIMS] = { 0 };
	while (t.kind == CXType_ConstantArray || t.kind == CXType_VariableArray || t.kind == CXType_IncompleteArray) {
		if (a->ndims >= KERNEL_MAX_DIMS)
			return kparse_fail(w, v, "more than %d dimensions", KERNEL_MAX_DIMS);
		if (t.kind == CXType_IncompleteArray)
			return kparse_fail(w, v, "array '%s' needs a size", a->name);
		if (t.kind == CXType_ConstantArray)
			poly_const(&a->dim[a->ndims], kclang.clang_getArraySize(t));
		else
			vla[a->ndims] = 1;
		a->ndims++;
		t = kclang.clang_getArrayElementType(t);
	}
	for (int d = 0; d < a->ndims; d++) {
		if (!vla[d])
			continue;
		if (nsizes != a->ndims)
			return kparse_fail(w, v, "cannot read the sizes of '%s'", a->name);
		struct kaff sz;
		int rc = kparse_affine(w, sizes[a->ndims - 1 - d], &sz, "an array size");
		if (rc)
			return rc;
		if (kparse_aff_has_loops(&sz, KERNEL_MAX_LOOPS))
			return kparse_fail(w, sizes[a->ndims - 1 - d], "array sizes must be constants");
		a->dim[d] = sz.c;
	}
	int rc = elsize_of(w, v, t, &a->elsize);
	if (rc)
		return rc;
	w->arraydecl[k->narrays] = v;
	k->narrays++;
	return 0;
}

int kparse_array_of(struct walk *w, CXCursor decl)
{
	for (int i = 0; i < w->k->narrays; i++)
		if (kclang.clang_equalCursors(decl, w->arraydecl[i]))
			return i;
	return -1;
}

/* Statements an innermost body may not hold, and what to write instead. */
static const struct {
	enum CXCursorKind kind;
	const char *why;
} refused[] = {
	{ CXCursor_DeclStmt, "declarations inside the loop are not supported: declare scalars before the loop" },
	{ CXCursor_IfStmt, "if statements are not supported" },
	{ CXCursor_CallExpr, "function calls are not supported" },
	{ CXCursor_ForStmt, "only one loop per level: the innermost loop holds only assignments" },
	{ CXCursor_WhileStmt, "while and do loops are not supported: use for loops" },
	{ CXCursor_DoStmt, "while and do loops are not supported: use for loops" },
	{ CXCursor_UnaryOperator, "increments are not supported in the body: write an assignment" },
};

/* One assignment of an innermost body: =, or a compound assignment that also reads and counts a flop. */
static int statement(struct walk *w, CXCursor s)
{
	struct kids k = kparse_children(s);
	char op[8];
	switch (kclang.clang_getCursorKind(s)) {
	case CXCursor_BinaryOperator:
	case CXCursor_CompoundAssignOperator: {
		if (k.n != 2)
			return kparse_fail(w, s, "cannot read this statement");
		kparse_binop(w, s, &k, op, sizeof(op));
		int compound = kclang.clang_getCursorKind(s) == CXCursor_CompoundAssignOperator;
		if (!compound && strcmp(op, "="))
			return kparse_fail(w, s, "a statement must be an assignment (=, +=, -=, *=, /=)");
		CXCursor lhs = kparse_bare(k.c[0]);
		int rc = kparse_value(w, k.c[1]);
		if (rc)
			return rc;
		if (kclang.clang_getCursorKind(lhs) == CXCursor_ArraySubscriptExpr) {
			if (compound && (rc = kparse_access(w, lhs, 0)))
				return rc;
			if ((rc = kparse_access(w, lhs, 1)))
				return rc;
		} else if (kclang.clang_getCursorKind(lhs) == CXCursor_DeclRefExpr) {
			CXCursor d = kclang.clang_getCursorReferenced(lhs);
			int ai = kparse_array_of(w, d);
			if (ai < 0 || w->k->array[ai].ndims != 0)
				return kparse_fail(w, lhs, "only array elements and scalars declared in the kernel can be assigned");
		} else {
			return kparse_fail(w, lhs, "only array elements and scalars can be assigned");
		}
		if (compound) {
			char base[2] = { op[0], 0 };
			if ((rc = kparse_count_flop(w, s, base)))
				return rc;
		}
		w->k->statements++;
		return 0;
	}
	case CXCursor_NullStmt:
		return 0;
	default:
		for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
			if (refused[i].kind == kclang.clang_getCursorKind(s))
				return kparse_fail(w, s, "%s", refused[i].why);
		return kparse_fail(w, s, "this statement is not supported (assignments only)");
	}
}

/* The statements of a block, the first 1024 of n. */
struct stmts {
	int n;
	CXCursor c[1024];
};

static int loop(struct walk *w, CXCursor f);

/* A loop body: exactly one for loop (an outer level), or assignments (the innermost level). */
static int body(struct walk *w, CXCursor b)
{
	static __thread struct stmts s;
	if (kclang.clang_getCursorKind(b) != CXCursor_CompoundStmt)
		return kclang.clang_getCursorKind(b) == CXCursor_ForStmt ? loop(w, b) : statement(w, b);
	s.n = kparse_children_into(b, s.c, 1024);
	if (s.n > 1024)
		return kparse_fail(w, b, "more than 1024 statements in one block");
	int nfor = 0;
	for (int i = 0; i < s.n; i++)
		nfor += kclang.clang_getCursorKind(s.c[i]) == CXCursor_ForStmt;
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
			if (kclang.clang_getCursorKind(s.c[i]) != CXCursor_ForStmt)
				return kparse_fail(w, s.c[i], "only the innermost loop may hold statements (one loop per level)");
		return kparse_fail(w, s.c[1], "only one loop per level");
	}
	return loop(w, s.c[0]);
}

static int loop(struct walk *w, CXCursor f)
{
	struct kernel *k = w->k;
	if (k->nloops >= KERNEL_MAX_LOOPS)
		return kparse_fail(w, f, "more than %d nested loops", KERNEL_MAX_LOOPS);
	struct kids c = kparse_children(f);
	if (c.n != 4)
		return kparse_fail(w, f, "a loop needs all three parts: for (int i = START; i < END; i++)");
	struct kloop *L = &k->loop[k->nloops];
	memset(L, 0, sizeof(*L));
	L->pos = kparse_pos(f);
	/* init: a declaration of the index */
	if (kclang.clang_getCursorKind(c.c[0]) != CXCursor_DeclStmt)
		return kparse_fail(w, c.c[0], "declare the loop index in the loop: for (int i = START; ...)");
	struct kids d = kparse_children(c.c[0]);
	if (d.n != 1 || kclang.clang_getCursorKind(d.c[0]) != CXCursor_VarDecl)
		return kparse_fail(w, c.c[0], "declare exactly one loop index");
	CXCursor var = d.c[0];
	CXType vt = kclang.clang_getCanonicalType(kclang.clang_getCursorType(var));
	if (vt.kind < CXType_Char_U || vt.kind > CXType_LongLong || vt.kind == CXType_Bool)
		return kparse_fail(w, var, "the loop index must be an integer");
	kparse_spelling(var, L->var, sizeof(L->var));
	struct kids init = kparse_children(var);
	if (init.n != 1)
		return kparse_fail(w, var, "the loop index needs a start value");
	struct kaff a;
	int rc = kparse_affine(w, init.c[init.n - 1], &a, "a loop bound");
	if (rc)
		return rc;
	if (kparse_aff_has_loops(&a, k->nloops))
		return kparse_fail(w, init.c[0], "loop bounds that depend on other loop indices are not supported");
	L->start = a.c;
	/* condition: i < END or i <= END */
	CXCursor cond = kparse_bare(c.c[1]);
	struct kids cc = kparse_children(cond);
	char op[8];
	if (kclang.clang_getCursorKind(cond) != CXCursor_BinaryOperator || cc.n != 2)
		return kparse_fail(w, cond, "the loop condition must be 'index < END' or 'index <= END'");
	kparse_binop(w, cond, &cc, op, sizeof(op));
	CXCursor lhs = kparse_bare(cc.c[0]);
	if (kclang.clang_getCursorKind(lhs) != CXCursor_DeclRefExpr ||
	    !kclang.clang_equalCursors(kclang.clang_getCursorReferenced(lhs), var))
		return kparse_fail(w, cond, "the loop condition must compare this loop's index: '%s < END'", L->var);
	if (strcmp(op, "<") && strcmp(op, "<="))
		return kparse_fail(w, cond, "the loop condition must be '<' or '<=' (increasing loops only), not '%s'", op);
	if ((rc = kparse_affine(w, cc.c[1], &a, "a loop bound")))
		return rc;
	if (kparse_aff_has_loops(&a, k->nloops))
		return kparse_fail(w, cc.c[1], "loop bounds that depend on other loop indices are not supported");
	L->end = a.c;
	if (!strcmp(op, "<=")) {
		struct poly one;
		poly_const(&one, 1);
		if (poly_add(&L->end, &L->end, &one))
			return kparse_fail(w, cond, "the loop bound is too large");
	}
	/* increment: i++, ++i, i += C, i = i + C */
	CXCursor inc = kparse_bare(c.c[2]);
	struct kids ic = kparse_children(inc);
	enum CXCursorKind ik = kclang.clang_getCursorKind(inc);
	L->step = 0;
	if (ic.n >= 1) {
		CXCursor iv = kparse_bare(ic.c[0]);
		int on_var = kclang.clang_getCursorKind(iv) == CXCursor_DeclRefExpr &&
			     kclang.clang_equalCursors(kclang.clang_getCursorReferenced(iv), var);
		if (ik == CXCursor_UnaryOperator && on_var) {
			kparse_unop(w, inc, &ic, op, sizeof(op));
			if (!strcmp(op, "++"))
				L->step = 1;
		} else if (ik == CXCursor_CompoundAssignOperator && on_var && ic.n == 2) {
			kparse_binop(w, inc, &ic, op, sizeof(op));
			struct kaff s;
			int64_t v;
			if (!strcmp(op, "+=") && !kparse_affine(w, ic.c[1], &s, "a loop step") &&
			    !kparse_aff_has_loops(&s, KERNEL_MAX_LOOPS) && poly_is_const(&s.c, &v))
				L->step = v;
			if (w->err && w->err->code)
				return w->err->code;
		}
	}
	if (L->step <= 0)
		return kparse_fail(w, inc, "the loop step must be a positive constant: %s++ or %s += C", L->var, L->var);
	w->loopvar[k->nloops] = var;
	k->nloops++;
	return body(w, c.c[3]);
}

int kparse_top(struct walk *w, CXCursor fn)
{
	struct stmts *s = malloc(sizeof(*s));
	if (!s)
		return as_error_set(w->err, -ENOMEM, "out of memory");
	s->n = kparse_children_into(fn, s->c, 1024);
	CXCursor bodyc = { 0 };
	int found = 0, rc = 0;
	for (int i = 0; i < s->n && i < 1024; i++)
		if (kclang.clang_getCursorKind(s->c[i]) == CXCursor_CompoundStmt) {
			bodyc = s->c[i];
			found = 1;
		}
	if (!found) {
		free(s);
		return as_error_set(w->err, -EINVAL, "%s: cannot find the kernel's statements", w->file);
	}
	s->n = kparse_children_into(bodyc, s->c, 1024);
	for (int i = 0; i < s->n && i < 1024 && !rc; i++) {
		CXCursor c = s->c[i];
		switch (kclang.clang_getCursorKind(c)) {
		case CXCursor_DeclStmt: {
			if (w->k->nloops)
				rc = kparse_fail(w, c, "declarations must come before the loop nest");
			struct stmts *d = malloc(sizeof(*d));
			if (!d) {
				rc = as_error_set(w->err, -ENOMEM, "out of memory");
				break;
			}
			d->n = kparse_children_into(c, d->c, 1024);
			for (int j = 0; j < d->n && j < 1024 && !rc; j++)
				rc = kclang.clang_getCursorKind(d->c[j]) == CXCursor_VarDecl
					     ? declare(w, d->c[j])
					     : kparse_fail(w, d->c[j], "only variable declarations are supported");
			free(d);
			break;
		}
		case CXCursor_ForStmt:
			if (w->nest_done)
				rc = kparse_fail(w, c, "only one loop nest per kernel");
			else
				rc = loop(w, c);
			w->nest_done = 1;
			break;
		case CXCursor_NullStmt:
			break;
		default:
			rc = kparse_fail(w, c, "only declarations and one loop nest are allowed at the top level");
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
