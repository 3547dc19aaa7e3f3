/* The kernel reader's side of libclang: opening it with dlopen, and the cursor helpers the walk
 * uses (positions and errors, children, operators, names and types). */
#include "model/kernel-parse.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef ARCHSCOPE_LIBCLANG
#define ARCHSCOPE_LIBCLANG "libclang.so"
#endif

/* libclang is loaded when the first kernel is read, not when archscope starts: linked, its
 * libLLVM relocations cost every command about 15 ms of page faults on a virtual machine. The
 * functions used are looked up by name into `kclang`. */
struct kparse_clang kclang;

int kparse_clang_load(struct as_error *err)
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
#define X(f) if (!miss && !(*(void **)&kclang.f = dlsym(h, #f))) miss = #f;
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

struct kpos kparse_pos(CXCursor c)
{
	CXString f;
	unsigned line = 0, col = 0;
	kclang.clang_getPresumedLocation(kclang.clang_getCursorLocation(c), &f, &line, &col);
	kclang.clang_disposeString(f);
	return (struct kpos){ (int)line, (int)col };
}

int kparse_fail(struct walk *w, CXCursor c, const char *fmt, ...)
{
	if (w->err && w->err->code)
		return w->err->code; /* keep the first, innermost message */
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	struct kpos p = kparse_pos(c);
	return as_error_set(w->err, -EINVAL, "%s:%d:%d: %s", w->file, p.line, p.col, msg);
}

/* --- cursor helpers ---------------------------------------------------------------------- */

struct collect {
	CXCursor *c;
	int n, cap;
};

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	struct collect *l = d;
	if (l->n < l->cap)
		l->c[l->n] = c;
	l->n++;
	return CXChildVisit_Continue;
}

int kparse_children_into(CXCursor c, CXCursor *out, int cap)
{
	struct collect l = { out, 0, cap };
	kclang.clang_visitChildren(c, collect, &l);
	return l.n;
}

struct kids kparse_children(CXCursor c)
{
	struct kids k = { 0 };
	k.n = kparse_children_into(c, k.c, 8);
	return k;
}

CXCursor kparse_bare(CXCursor c)
{
	for (;;) {
		enum CXCursorKind kind = kclang.clang_getCursorKind(c);
		if (kind != CXCursor_UnexposedExpr && kind != CXCursor_ParenExpr)
			return c;
		struct kids k = kparse_children(c);
		if (k.n != 1)
			return c;
		c = k.c[0];
	}
}

static unsigned offset_of(CXSourceLocation l)
{
	unsigned off = 0;
	kclang.clang_getFileLocation(l, NULL, NULL, NULL, &off);
	return off;
}

/* The operator of a binary or unary expression: the first token at or after `after` (an
 * offset in the buffer) inside the cursor's extent; for unary, after = 0 gives the first token. */
static void op_token(struct walk *w, CXCursor c, unsigned after, int last, char *out, size_t len)
{
	CXToken *t = NULL;
	unsigned n = 0;
	out[0] = 0;
	kclang.clang_tokenize(w->tu, kclang.clang_getCursorExtent(c), &t, &n);
	for (unsigned i = 0; i < n; i++) {
		unsigned idx = last ? n - 1 - i : i;
		if (!last && offset_of(kclang.clang_getTokenLocation(w->tu, t[idx])) < after)
			continue;
		if (kclang.clang_getTokenKind(t[idx]) != CXToken_Punctuation)
			continue;
		CXString s = kclang.clang_getTokenSpelling(w->tu, t[idx]);
		snprintf(out, len, "%s", kclang.clang_getCString(s));
		kclang.clang_disposeString(s);
		break;
	}
	if (t)
		kclang.clang_disposeTokens(w->tu, t, n);
}

void kparse_binop(struct walk *w, CXCursor c, const struct kids *k, char *op, size_t len)
{
	unsigned end = offset_of(kclang.clang_getRangeEnd(kclang.clang_getCursorExtent(k->c[0])));
	op_token(w, c, end, 0, op, len);
}

void kparse_unop(struct walk *w, CXCursor c, const struct kids *k, char *op, size_t len)
{
	unsigned start = offset_of(kclang.clang_getRangeStart(kclang.clang_getCursorExtent(c)));
	unsigned sub = offset_of(kclang.clang_getRangeStart(kclang.clang_getCursorExtent(k->c[0])));
	if (sub > start)
		op_token(w, c, 0, 0, op, len);
	else
		op_token(w, c, 0, 1, op, len);
}

void kparse_spelling(CXCursor c, char *out, size_t len)
{
	CXString s = kclang.clang_getCursorSpelling(c);
	snprintf(out, len, "%s", kclang.clang_getCString(s));
	kclang.clang_disposeString(s);
}

int kparse_is_float(CXType t)
{
	t = kclang.clang_getCanonicalType(t);
	return t.kind == CXType_Double || t.kind == CXType_Float;
}
