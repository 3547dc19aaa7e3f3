/* The streaming benchmarks of a machine file (file-kernels.h): the table and the sweep. */
#include "bench/file-kernels.h"

#define BENCH_FILE_KERNEL_ROW_(id, name, why) [id] = { name, why },
const struct bench_file_kernel bench_file_kernels[BFK_COUNT] = { BENCH_FILE_KERNELS(BENCH_FILE_KERNEL_ROW_) };

int bench_file_max_cores(int allowed)
{
	return allowed > BENCH_MAX_THREADS ? BENCH_MAX_THREADS : allowed;
}

void bench_file_sweep(struct bench_sweep *sw, const struct bench_levels *lv, const struct bench_kernel *const *ks,
		      const struct as_cpulist *cpus, double clock_ghz, double line_bytes)
{
	*sw = (struct bench_sweep){ .lv = lv, .kernels = ks, .nkernels = BFK_COUNT, .cpus = cpus,
				    .max_threads = bench_file_max_cores(cpus->n),
				    .run = { .reps = BENCH_FILE_REPS, .min_time_s = BENCH_FILE_MIN_TIME_S, .clock_ghz = clock_ghz,
					     .line_bytes = line_bytes > 0 ? line_bytes : 0 } };
}
