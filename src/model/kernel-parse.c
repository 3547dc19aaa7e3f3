/* The kernel reader: libclang parses the file (wrapped in a function, the constants declared),
 * and a walk over the AST (kernel-parse-nest.c, kernel-parse-expr.c) accepts exactly the language
 * of Kerncraft §2.1 and says, with file:line:column, what it does not support. */
#include "model/kernel-parse.h"
#include "model/kernel-cache.h"
#include "common/atomicfile.h"
#include "common/buffer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* One index and one translation unit per process, reparsed for every parse: a reparse keeps the
 * compiler invocation and so skips clang's driver (the command line, the toolchain's search),
 * a large part of a fresh parse of a small kernel (bench/results/design-measurements.md, reparse).
 * The unit holds the last kernel's AST until the next parse or the end of the process. The
 * reader is not for several threads at once (nor is libclang's loading). */
static CXIndex kept_index;
static CXTranslationUnit kept_tu;

static CXTranslationUnit translate(const char *src, size_t n)
{
	static const char *const args[] = { "-xc", "-std=c99", "-Wno-vla", "-Wno-unused-value", "-ferror-limit=0", "-nostdinc",
					     /* clang 16 on makes an undeclared function an error; the reader names calls itself */
					     "-Wno-implicit-function-declaration" };
	struct CXUnsavedFile u = { "archscope-kernel.c", src, (unsigned long)n };
	if (kept_tu) {
		if (kclang.clang_reparseTranslationUnit(kept_tu, 1, &u, kclang.clang_defaultReparseOptions(kept_tu)) == 0)
			return kept_tu;
		/* libclang's contract: a unit whose reparse failed is disposed; a fresh parse follows */
		kclang.clang_disposeTranslationUnit(kept_tu);
		kept_tu = NULL;
	}
	CXTranslationUnit tu = NULL;
	if (kclang.clang_parseTranslationUnit2(kept_index, "archscope-kernel.c", args, sizeof(args) / sizeof(args[0]), &u, 1,
					CXTranslationUnit_None, &tu) != CXError_Success)
		return NULL;
	return kept_tu = tu;
}

static enum CXChildVisitResult find_fn(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	char name[64];
	kparse_spelling(c, name, sizeof(name));
	if (kclang.clang_getCursorKind(c) == CXCursor_FunctionDecl && !strcmp(name, WRAP_FN)) {
		*(CXCursor *)d = c;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

/* The limits of kernel.h checked on the text, skipping comments, strings and character
 * literals: libclang and the walk both recurse per bracket and per operator, and tokenising
 * each operator's extent is quadratic in a statement's length. */
static int prescan(const char *name, const char *t, size_t len, struct as_error *err)
{
	int depth = 0, line = 1, stmt_line = 1;
	long ops = 0;
	for (size_t i = 0; i < len; i++) {
		char c = t[i];
		if (c == '\n') {
			line++;
		} else if (c == '/' && i + 1 < len && t[i + 1] == '/') {
			while (i + 1 < len && t[i + 1] != '\n')
				i++;
		} else if (c == '/' && i + 1 < len && t[i + 1] == '*') {
			for (i += 2; i + 1 < len && !(t[i] == '*' && t[i + 1] == '/'); i++)
				line += t[i] == '\n';
			i++;
		} else if (c == '"' || c == '\'') {
			for (i++; i < len && t[i] != c && t[i] != '\n'; i++)
				i += t[i] == '\\';
		} else if (c == '(' || c == '[' || c == '{') {
			if (++depth > KERNEL_MAX_NESTING)
				return as_error_set(err, -E2BIG, "%s:%d: brackets nested deeper than %d (the limit)", name, line,
						    KERNEL_MAX_NESTING);
		} else if (c == ')' || c == ']' || c == '}') {
			depth -= depth > 0;
		}
		if (c == ';' || c == '{' || c == '}') {
			ops = 0;
			stmt_line = line;
		} else if (strchr("+-*/%&|^!~<>=?", c) && c && ++ops > KERNEL_MAX_STMT_OPS) {
			return as_error_set(err, -E2BIG, "%s:%d: a statement with more than %d operators (the limit)", name,
					    stmt_line, KERNEL_MAX_STMT_OPS);
		}
	}
	return 0;
}

int kernel_parse_buffer(struct kernel *k, const char *name, const char *text, size_t len, struct as_error *err)
{
	memset(k, 0, sizeof(*k));
	snprintf(k->file, sizeof(k->file), "%s", name);
	if (memchr(text, 0, len))
		return as_error_set(err, -EINVAL, "%s: not a C source file (it contains a NUL byte)", name);
	char lim[32];
	if (len > KERNEL_MAX_BYTES)
		return as_error_set(err, -EFBIG, "%s: larger than %s (the limit)", name,
				    buffer_format_size(KERNEL_MAX_BYTES, lim, sizeof(lim)));
	int prc = prescan(name, text, len, err);
	if (prc)
		return prc;
	int lrc = kparse_clang_load(err);
	if (lrc)
		return lrc;
	if (!kept_index && !(kept_index = kclang.clang_createIndex(0, 0)))
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
		tu = translate(src, n);
		free(src);
		if (!tu) {
			rc = as_error_set(err, -EINVAL, "%s: libclang cannot parse this file", name);
			break;
		}
		unsigned nd = kclang.clang_getNumDiagnostics(tu);
		int first_error = -1;
		for (unsigned i = 0; i < nd; i++) {
			CXDiagnostic d = kclang.clang_getDiagnostic(tu, i);
			enum CXDiagnosticSeverity sev = kclang.clang_getDiagnosticSeverity(d);
			CXString s = kclang.clang_getDiagnosticSpelling(d);
			const char *msg = kclang.clang_getCString(s);
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
						kclang.clang_getPresumedLocation(kclang.clang_getDiagnosticLocation(d), &f, &line, &col);
						kclang.clang_disposeString(f);
						k->sym_pos[k->nsyms] = (struct kpos){ (int)line, (int)col };
						k->nsyms++;
					}
				}
			} else if (sev >= CXDiagnostic_Error && first_error < 0) {
				first_error = (int)i;
			}
			kclang.clang_disposeString(s);
			kclang.clang_disposeDiagnostic(d);
		}
		/* in the first pass other errors may follow from the missing declarations */
		if (!rc && first_error >= 0 && (pass == 1 || k->nsyms == 0)) {
			CXDiagnostic d = kclang.clang_getDiagnostic(tu, (unsigned)first_error);
			CXString s = kclang.clang_getDiagnosticSpelling(d);
			CXString f;
			unsigned line, col;
			kclang.clang_getPresumedLocation(kclang.clang_getDiagnosticLocation(d), &f, &line, &col);
			rc = as_error_set(err, -EINVAL, "%s:%u:%u: %s", name, line, col, kclang.clang_getCString(s));
			kclang.clang_disposeString(f);
			kclang.clang_disposeString(s);
			kclang.clang_disposeDiagnostic(d);
		}
		if (pass == 0 && k->nsyms == 0 && !rc)
			break; /* no constants: the first parse is the one */
	}
	if (!rc) {
		CXCursor fn = kclang.clang_getNullCursor();
		kclang.clang_visitChildren(kclang.clang_getTranslationUnitCursor(tu), find_fn, &fn);
		struct walk *w = calloc(1, sizeof(*w));
		if (!w) {
			rc = as_error_set(err, -ENOMEM, "out of memory");
		} else {
			*w = (struct walk){ .k = k, .tu = tu, .err = err, .file = name };
			if (kclang.clang_Cursor_isNull(fn))
				rc = as_error_set(err, -EINVAL, "%s: cannot find the kernel's statements", name);
			else
				rc = kparse_top(w, fn);
			free(w);
		}
	}
	return rc; /* tu stays for the next parse's reparse */
}

int kernel_parse_file(struct kernel *k, const char *path, struct as_error *err)
{
	size_t len = 0;
	char *buf = file_read_input(path, "kernel", KERNEL_MAX_BYTES, &len, err);
	if (!buf)
		return err && err->code ? err->code : -EINVAL;
	int rc = kernel_parse_text(k, strcmp(path, "-") ? path : "<stdin>", buf, len, NULL, err);
	free(buf);
	return rc;
}

int kernel_parse_text(struct kernel *k, const char *name, const char *text, size_t len, struct as_error *note,
		      struct as_error *err)
{
	int rc = 0;
	if (!kernel_cache_get(k, name, text, len, note) && (rc = kernel_parse_buffer(k, name, text, len, err)) == 0)
		kernel_cache_put(k, text, len);
	return rc;
}
