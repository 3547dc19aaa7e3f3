/* One stage of a pipeline of processes ("pipe-stage K STAGES [UNITS]"): stage 0 makes UNITS items,
 * every stage does 1/STAGES of each item's work and passes it on through a pipe (8-byte writes,
 * unbuffered, so the stages overlap item by item), the last prints a checksum. A STAGES-stage
 * pipeline does the same work as one stage alone: stack follows the processes, and a stage
 * waiting for its input is blocked in a read no wrapper sees (blocked_other). */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

static int full_io(int fd, void *buf, size_t n, int writing)
{
	size_t done = 0;
	while (done < n) {
		ssize_t k = writing ? write(fd, (char *)buf + done, n - done) : read(fd, (char *)buf + done, n - done);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		done += (size_t)k;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s STAGE STAGES [UNITS]\n", argv[0]);
		return 2;
	}
	int stage = atoi(argv[1]), stages = atoi(argv[2]);
	long units = argc > 3 ? atol(argv[3]) : EXAMPLE_UNITS;
	if (stages < 1 || stage < 0 || stage >= stages || units < 1) {
		fprintf(stderr, "%s: bad arguments\n", argv[0]);
		return 2;
	}
	int iters = 40000 / stages;
	uint64_t sum = 0;
	for (long u = 0; u < units; u++) {
		uint64_t x = (uint64_t)u;
		if (stage > 0 && full_io(0, &x, sizeof(x), 0) != 0) {
			fprintf(stderr, "pipe-stage %d: input ended early\n", stage);
			return 1;
		}
		x = example_work_n(x, iters);
		if (stage + 1 < stages) {
			if (full_io(1, &x, sizeof(x), 1) != 0)
				return 1;
		} else {
			sum += x & 1;
		}
	}
	if (stage + 1 == stages)
		printf("pipeline: %ld units through %d stages, %llu odd\n", units, stages, (unsigned long long)sum);
	return 0;
}
