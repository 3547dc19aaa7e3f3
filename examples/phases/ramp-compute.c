/* A program with two phases for `archscope phases`: it first grows its footprint at an even pace
 * (touching MIB MiB in even slices every 2 ms, RAMP_S seconds on an idle machine), then computes on that memory for COMPUTE_S
 * seconds without allocating. It prints on stderr when its ramp really ended, measured from its
 * own start, so a test can compare the breakpoint phases finds with the truth even under load.
 * usage: ramp-compute [MIB [RAMP_S [COMPUTE_S]]]   (defaults 128 1.0 1.5) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 128;
	double ramp_s = argc > 2 ? atof(argv[2]) : 1.0, compute_s = argc > 3 ? atof(argv[3]) : 1.5;
	if (mib < 1 || !(ramp_s > 0) || !(compute_s >= 0)) {
		fprintf(stderr, "usage: ramp-compute [MIB [RAMP_S [COMPUTE_S]]]\n");
		return 2;
	}
	size_t bytes = mib << 20, page = 4096;
	unsigned char *buf = malloc(bytes);
	if (!buf) {
		fprintf(stderr, "ramp-compute: cannot allocate %zu MiB\n", mib);
		return 1;
	}
	double t0 = now_s();
	/* ramp: one slice every 2 ms, so a loaded machine stretches the ramp evenly instead of
	 * making it catch up in a burst */
	size_t steps = (size_t)(ramp_s * 500) + 1, slice = (bytes / steps + page - 1) / page * page;
	for (size_t touched = 0; touched < bytes;) {
		for (size_t end = touched + slice; touched < end && touched < bytes; touched += page)
			buf[touched] = (unsigned char)touched;
		struct timespec ts = { 0, 2000000 };
		nanosleep(&ts, NULL);
	}
	double ramp_end = now_s() - t0;
	/* compute: read the memory over and over, allocating nothing */
	unsigned long sum = 0;
	while (now_s() - t0 < ramp_end + compute_s)
		for (size_t i = 0; i < bytes; i += 64)
			sum += buf[i];
	double end = now_s() - t0;
	fprintf(stderr, "ramp-compute: ramp ended at %.4f s, run ended at %.4f s (checksum %lu)\n", ramp_end, end, sum & 0xff);
	/* no free(): unmapping 100 MiB takes tens of ms on a loaded machine, a third phase (teardown)
	 * the sampler would see; the exit tears the memory down where statm no longer shows it */
	return 0;
}
