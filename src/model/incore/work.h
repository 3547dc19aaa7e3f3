/* Private to src/model/incore/: the working directory the tools write into, and the steps that
 * run them, shared by the analysis (incore.c) and the benchmark (bench.c). */
#ifndef ARCHSCOPE_MODEL_INCORE_WORK_H
#define ARCHSCOPE_MODEL_INCORE_WORK_H

#include "model/incore/incore.h"

/* The files of one run, by role, once: X(ID, name) gives W_<ID>, the index of its path, and the
 * file's name in the directory. */
#define INCORE_WORK_FILES(X)                                                                       \
	X(C, "kernel.c") X(S, "kernel.s") X(LOOP, "loop.s") X(JSON, "mca.json") X(OUT, "out.txt")  \
	X(ERR, "err.txt") X(BIN, "bench") X(PORTS_S, "loadports.s") X(PORTS_JSON, "loadports.json")
enum {
#define X(id, name) W_##id,
	INCORE_WORK_FILES(X)
#undef X
	W_NFILES
};

struct incore_workdir {
	char dir[256];
	char path[W_NFILES][320];
	int keep;   /* ARCHSCOPE_MODEL_KEEP: the files stay (and the directory is not removed) */
};

/* A fresh temporary directory ($TMPDIR or /tmp), or ARCHSCOPE_MODEL_KEEP's, with the paths set. */
int incore_workdir_open(struct incore_workdir *w, struct as_error *err);
/* Removes the files and the directory, unless kept. */
void incore_workdir_close(struct incore_workdir *w);

/* incore_codegen into the file at path. */
int incore_codegen_file(const struct kernel *k, const struct kbound *b, const char *text, size_t len, int with_main,
			const char *path, struct as_error *err);

/* Compiles src with the configured compiler and flags to dst: assembly (for_asm) or a program.
 * The compiler's messages go to w's W_ERR file and into the error. */
int incore_compile(const struct incore_config *cfg, const char *src, const char *dst, int for_asm, struct incore_workdir *w,
		   struct as_error *err);

/* llvm-mca on w's W_LOOP file, read into out. Without the machine file's non-overlapping ports, a
 * second run finds the ports this -mcpu gives plain integer loads and takes them. */
int incore_mca_run(const struct incore_config *cfg, struct incore_workdir *w, struct incore_mca *out, struct as_error *err);

#endif
