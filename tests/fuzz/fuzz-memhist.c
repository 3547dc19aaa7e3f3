/* libFuzzer target for memhist's recorded-sample reader (`memhist --from`: JSON lines or the text
 * of `perf script -F data_src,weight`): any bytes either fail with a message or give samples,
 * which then go through the data-source decoding and both histograms on the default bins.
 * Built and run by tests/fuzz/run.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "measure/memsample.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-memhist", 0);
	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct memsample_set set = { 0 };
	struct as_error err = { 0 };
	int rc = memsample_read_file(path, &set, &err);
	close(fd);
	if (rc != 0) {
		if (!err.msg[0])
			abort(); /* a failure must say why */
		memsample_set_release(&set);
		return 0;
	}
	struct memsample_bins b;
	if (memsample_bins_parse("log2", &b, &err) != 0)
		abort();
	for (int cost = 0; cost < 2; cost++) {
		struct memsample_hist h;
		memsample_hist_build(&set, &b, cost, &h);
	}
	memsample_set_release(&set);
	return 0;
}
