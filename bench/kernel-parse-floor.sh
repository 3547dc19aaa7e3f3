#!/bin/bash
# The floor of the kernel reader's speed (issue 29, fuzzing): CPU milliseconds per call of
#   parse     libclang alone: clang_parseTranslationUnit2 + dispose of the kernel as the reader wraps
#             it (constants declared), one CXIndex for the process
#   reparse   libclang alone: clang_reparseTranslationUnit of one kept unit (what the reader does
#             since it keeps its unit)
#   reader    kernel_parse_buffer: both passes (find the constants, parse with them declared) and
#             the walk over the AST
# each the median of BATCHES batches of CALLS calls (getrusage, all threads), with libclang's
# parse thread (default) and with LIBCLANG_NOTHREADS=1 (what the fuzz target sets).
# Usage: bench/kernel-parse-floor.sh [CALLS] [BATCHES]   (defaults 100, 5; needs build/ from the cmake line)
set -eu
cd "$(dirname "$0")/.."
calls=${1:-100}
batches=${2:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/floor.c" <<'C'
#include <clang-c/Index.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "common/atomicfile.h"
#include "model/kernel.h"
static double cpu_ms(void)
{
	struct rusage r;
	getrusage(RUSAGE_SELF, &r);
	return (r.ru_utime.tv_sec + r.ru_stime.tv_sec) * 1e3 + (r.ru_utime.tv_usec + r.ru_stime.tv_usec) * 1e-3;
}
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
int main(int argc, char **argv)
{
	int calls = atoi(argv[1]), batches = atoi(argv[2]);
	static const char *const args[] = { "-xc", "-std=c99", "-Wno-vla", "-Wno-unused-value", "-ferror-limit=0", "-nostdinc",
					     "-Wno-implicit-function-declaration" };
	CXIndex idx = clang_createIndex(0, 0);
	for (int a = 3; a < argc; a++) {
		size_t len;
		char *text = file_read_all(argv[a], &len);
		struct kernel *k = kernel_new();
		struct as_error err = { 0 };
		if (!text || !k || kernel_parse_buffer(k, argv[a], text, len, &err)) {
			printf("%s: %s\n", argv[a], err.msg);
			continue;
		}
		char *src = NULL;
		size_t n = 0;
		FILE *f = open_memstream(&src, &n);
		for (int s = 0; s < k->nsyms; s++)
			fprintf(f, "extern const long %s;\n", k->sym[s]);
		fprintf(f, "void f(void) {\n#line 1 \"%s\"\n%s\n}\n", argv[a], text);
		fclose(f);
		struct CXUnsavedFile u = { "archscope-kernel.c", src, (unsigned long)n };
		double med[3];
		for (int what = 0; what < 3; what++) {
			double ms[64];
			CXTranslationUnit kept = NULL;
			clang_parseTranslationUnit2(idx, "archscope-kernel.c", args, 7, &u, 1, CXTranslationUnit_None, &kept);
			for (int b = 0; b < batches && b < 64; b++) {
				double t0 = cpu_ms();
				for (int i = 0; i < calls; i++) {
					CXTranslationUnit tu = NULL;
					if (what == 0) {
						clang_parseTranslationUnit2(idx, "archscope-kernel.c", args, 7, &u, 1, CXTranslationUnit_None, &tu);
						clang_disposeTranslationUnit(tu);
					} else if (what == 1) {
						clang_reparseTranslationUnit(kept, 1, &u, clang_defaultReparseOptions(kept));
					} else {
						kernel_parse_buffer(k, argv[a], text, len, &err);
					}
				}
				ms[b] = (cpu_ms() - t0) / calls;
			}
			clang_disposeTranslationUnit(kept);
			qsort(ms, (size_t)batches, sizeof(double), cmp);
			med[what] = ms[batches / 2];
		}
		printf("%-28s %d constants  parse %6.3f ms  reparse %6.3f ms  reader %6.3f ms (2 passes)\n",
		       strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a], k->nsyms, med[0], med[1], med[2]);
		free(src);
		free(text);
		kernel_free(k);
	}
	clang_disposeIndex(idx);
	return 0;
}
C
[ -f build/libas_model.a ] || { echo "build first (the cmake line of README.md)" >&2; exit 1; }
cc -O2 -std=c11 -D_GNU_SOURCE -Isrc -isystem /usr/lib/llvm-19/include "$tmp/floor.c" build/libas_model.a build/libas_machine.a \
	build/libas_analysis.a build/libas_report.a build/libas_common.a -L/usr/lib/llvm-19/lib -lclang -Wl,-rpath,/usr/lib/llvm-19/lib \
	$(pkg-config --libs jansson yaml-0.1 gsl) -ldl -lm -o "$tmp/floor"
echo "# kernel reader floor on $(uname -n), $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%MZ), load $(cut -d' ' -f1 /proc/loadavg); libclang $(/usr/lib/llvm-19/bin/llvm-config --version 2>/dev/null)"
echo "# CPU ms per call, median of $batches batches of $calls"
ks=(kernels/sum.c kernels/jacobi-2d-5pt.c kernels/3d-long-range.c kernels/matvec.c)
echo "## libclang's parse thread (default)"
"$tmp/floor" "$calls" "$batches" "${ks[@]}"
echo "## LIBCLANG_NOTHREADS=1"
LIBCLANG_NOTHREADS=1 "$tmp/floor" "$calls" "$batches" "${ks[@]}"
