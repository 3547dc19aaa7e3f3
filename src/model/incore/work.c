/* The directory where the generated C, the assembly and llvm-mca's output live while the tools run
 * (a temporary one, or ARCHSCOPE_MODEL_KEEP); see work.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/atomicfile.h"
#include "model/incore/work.h"

static const char *const work_names[W_NFILES] = {
#define X(id, name) name,
	INCORE_WORK_FILES(X)
#undef X
};

int incore_workdir_open(struct incore_workdir *w, struct as_error *err)
{
	/* ARCHSCOPE_MODEL_KEEP=DIR keeps the generated C, the assembly and llvm-mca's output there */
	const char *keep = getenv("ARCHSCOPE_MODEL_KEEP");
	w->keep = keep && *keep;
	if (w->keep) {
		snprintf(w->dir, sizeof(w->dir), "%s", keep);
		if (mkdir(w->dir, 0755) != 0 && errno != EEXIST)
			return as_error_set(err, -errno, "cannot make %s: %s", w->dir, strerror(errno));
		for (int i = 0; i < W_NFILES; i++)
			snprintf(w->path[i], sizeof(w->path[i]), "%s/%s", w->dir, work_names[i]);
		return 0;
	}
	int rc = tmp_dir_make(w->dir, sizeof(w->dir), "archscope-model", err);
	if (rc)
		return rc;
	for (int i = 0; i < W_NFILES; i++)
		snprintf(w->path[i], sizeof(w->path[i]), "%s/%s", w->dir, work_names[i]);
	return 0;
}

void incore_workdir_close(struct incore_workdir *w)
{
	if (w->keep)
		return;
	for (int i = 0; i < W_NFILES; i++)
		unlink(w->path[i]);
	rmdir(w->dir);
}

