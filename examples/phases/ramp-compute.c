/* A program with two phases for `archscope phases`: it first grows its footprint at an even pace
 * (touching MIB MiB over RAMP_S seconds of wall time), then computes on that memory for COMPUTE_S
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
	/* ramp: keep the touched bytes at bytes * elapsed / ramp_s */
	size_t touched = 0;
	while (touched < bytes) {
		double f = (now_s() - t0) / ramp_s;
		size_t want = f >= 1 ? bytes : (size_t)(f * (double)bytes);
		for (; touched < want; touched += page)
			buf[touched] = (unsigned char)touched;
		if (touched < bytes) {
			struct timespec ts = { 0, 1000000 };
			nanosleep(&ts, NULL);
		}
	}
	double ramp_end = now_s() - t0;
	/* compute: read the memory over and over, allocating nothing */
	unsigned long sum = 0;
	while (now_s() - t0 < ramp_end + compute_s)
		for (size_t i = 0; i < bytes; i += 64)
			sum += buf[i];
	double end = now_s() - t0;
	fprintf(stderr, "ramp-compute: ramp ended at %.4f s, run ended at %.4f s (checksum %lu)\n", ramp_end, end, sum & 0xff);
	free(buf);
	return 0;
}
