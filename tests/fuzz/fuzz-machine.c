/* libFuzzer target for the machine-file reader and writer: any bytes either fail with a message
 * or parse; a parsed file is checked, read typed, written, read again and written again, and the
 * two writings must be the same bytes; the typed machine written from its struct must read back
 * and write the same bytes again. Built and run by tests/fuzz/run.sh. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "machine/file.h"
#include "machine/write.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mtree t, u;
	struct as_error err = { 0 };
	if (mtree_parse((const char *)data, size, "fuzz", &t, &err) != 0) {
		if (!err.msg[0])
			abort(); /* a failure must say why */
		return 0;
	}
	char *report = NULL;
	machine_check(&t, "fuzz", &report);
	free(report);
	static struct machine m, m2;
	machine_read(&t, &m);
	/* the struct written, read back and written again: the same bytes */
	struct mtree w, w2, w3;
	if (machine_write_tree(&m, &w, &err) == 0) {
		char *x = mtree_emit_string(&w, &err);
		if (!x || mtree_parse(x, strlen(x), "written", &w2, &err) != 0)
			abort();
		machine_read(&w2, &m2);
		if (machine_write_tree(&m2, &w3, &err) != 0)
			abort();
		char *y = mtree_emit_string(&w3, &err);
		if (!y || strcmp(x, y) != 0)
			abort();
		free(x);
		free(y);
		mtree_free(&w);
		mtree_free(&w2);
		mtree_free(&w3);
	}
	char *a = mtree_emit_string(&t, &err);
	if (a) {
		if (mtree_parse(a, strlen(a), "again", &u, &err) != 0)
			abort(); /* what we write must read back */
		char *b = mtree_emit_string(&u, &err);
		if (!b || strcmp(a, b) != 0)
			abort(); /* and write the same bytes */
		free(b);
		mtree_free(&u);
		free(a);
	}
	mtree_free(&t);
	return 0;
}
