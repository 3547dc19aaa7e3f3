/* The scalar kernel table, from a file built without auto-vectorisation. */
#ifndef ARCHSCOPE_BENCH_KERNELS_SCALAR_H
#define ARCHSCOPE_BENCH_KERNELS_SCALAR_H

#include "bench/kernels.h"

extern const struct bench_kernel bench_kernels_scalar[];
extern const size_t bench_nkernels_scalar;

#endif
