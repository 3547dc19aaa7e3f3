/* Inside the kernel reader (kernel-parse*.c), not for other files: the libclang functions, the
 * walk over the AST and the helpers the reader's files share. kernel.h has the public calls. */
#ifndef ARCHSCOPE_MODEL_KERNEL_PARSE_H
#define ARCHSCOPE_MODEL_KERNEL_PARSE_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "common/error.h"
#include "model/kernel.h"

/* The libclang functions the reader calls, looked up by name into `kclang` when the first kernel
 * is read (kernel-parse-clang.c). */
#define CLANG_FUNCTIONS(X) \
	X(clang_Cursor_Evaluate) \
	X(clang_Cursor_isNull) \
	X(clang_EvalResult_dispose) \
	X(clang_EvalResult_getAsLongLong) \
	X(clang_createIndex) \
	X(clang_defaultReparseOptions) \
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
	X(clang_reparseTranslationUnit) \
	X(clang_tokenize) \
	X(clang_visitChildren)

struct kparse_clang {
#define X(f) __typeof__(f) *f;
	CLANG_FUNCTIONS(X)
#undef X
};

/* Filled by kparse_clang_load(); call nothing in it before that returned 0. */
extern struct kparse_clang kclang;

/* Opens libclang once per process (ARCHSCOPE_LIBCLANG in the environment names another one):
 * 0, or -ENOSYS with why it cannot be loaded, on this and every later call. */
int kparse_clang_load(struct as_error *err);

/* One walk over a kernel's AST, filling k. */
struct walk {
	struct kernel *k;
	CXTranslationUnit tu;
	struct as_error *err;
	const char *file;
	int nest_done;
	int depth; /* of the expression being read: bounded by KERNEL_MAX_EXPR_DEPTH */
	/* the declarations of the loop indices and the arrays: their cursors identify references */
	CXCursor loopvar[KERNEL_MAX_LOOPS];
	CXCursor arraydecl[KERNEL_MAX_ARRAYS];
};

/* --- cursors (kernel-parse-clang.c) ----------------------------------------------------- */

struct kpos kparse_pos(CXCursor c);

/* Sets "FILE:LINE:COL: message" at c and returns -EINVAL; a message set before is kept (the
 * first, innermost one) and its code returned. */
int kparse_fail(struct walk *w, CXCursor c, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Up to cap children of c stored in out[]; returns how many there are, which may be more. */
int kparse_children_into(CXCursor c, CXCursor *out, int cap);

/* The first 8 children of a cursor; n counts them all. */
struct kids {
	int n;
	CXCursor c[8];
};
struct kids kparse_children(CXCursor c);

/* c without implicit casts and parentheses. */
CXCursor kparse_bare(CXCursor c);

/* The operator of binary expression c (children k) or of unary expression c (prefix or
 * postfix), as written: libclang 14 has no operator kinds. Empty if none is found. */
void kparse_binop(struct walk *w, CXCursor c, const struct kids *k, char *op, size_t len);
void kparse_unop(struct walk *w, CXCursor c, const struct kids *k, char *op, size_t len);

void kparse_spelling(CXCursor c, char *out, size_t len);
int kparse_is_float(CXType t);

/* --- expressions (kernel-parse-expr.c) --------------------------------------------------- */

/* 1 if a depends on one of the first nloops loop indices. */
int kparse_aff_has_loops(const struct kaff *a, int nloops);

/* c as an affine function of the loop indices and constants; what ("an index", "a loop
 * bound") names it in errors. */
int kparse_affine(struct walk *w, CXCursor c, struct kaff *out, const char *what);

/* The array subscript c as an access of the kernel (a read, or a write if write). */
int kparse_access(struct walk *w, CXCursor c, int write);

/* A right-hand side: its accesses added and its flops counted. */
int kparse_value(struct walk *w, CXCursor c);

/* Counts one flop of operator op ("+", "-", "*", "/") if c is floating-point. */
int kparse_count_flop(struct walk *w, CXCursor c, const char *op);

/* --- declarations and the loop nest (kernel-parse-nest.c) -------------------------------- */

/* Index in k->array[] of the variable declared by decl, or -1. */
int kparse_array_of(struct walk *w, CXCursor decl);

/* The kernel's statements (the body of the wrapping function fn): declarations, then one loop
 * nest whose innermost body holds the assignments. */
int kparse_top(struct walk *w, CXCursor fn);

#endif
