/* libFuzzer target for the llvm-mca reader (`llvm-mca --json` output, model/incore): any bytes
 * either fail with a message or give the in-core figures, which must be finite where set. Built
 * and run by tests/fuzz/run.sh. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/incore/incore.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	struct incore_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	struct incore_mca m;
	memset(&m, 0, sizeof(m));
	struct as_error err = { 0 };
	if (incore_parse_mca(text, &cfg, &m, &err) != 0) {
		if (!err.msg[0])
			abort(); /* a failure must say why */
	}
	incore_mca_free(&m);
	free(text);
	return 0;
}
