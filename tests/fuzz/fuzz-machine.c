/* libFuzzer target for the machine-file reader: any bytes either fail with a message or parse;
 * a parsed file is checked, read typed, written, read again and written again, and the two
 * writings must be the same bytes. Built and run by tests/fuzz/run.sh. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "machine/file.h"

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
	struct machine m;
	machine_read(&t, &m);
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
