/* MPI (C bindings, the PMPI way without PMPI: the library comes first in the symbol search): the
 * time a rank spends in a blocking point-to-point or collective call is "mpi". On one node Open
 * MPI and MPICH poll shared memory until the message is there (busy polling: spinning); the time
 * includes the copy of the message itself. MPI_Init and MPI_Finalize are "mpi_init": start-up and
 * shutdown (the ranks wait for each other and for the launcher, in the 1-rank run too), counted
 * as waiting for other tasks, not as a delimiter. Every argument is passed through as a machine word, so no
 * mpi.h is needed and Open MPI (handles are pointers) and MPICH (handles are ints) both work on
 * x86-64 and arm64, where integer and pointer arguments travel alike in registers and 8-byte
 * stack slots. Fortran bindings do not go through these names and are not timed. */
#include <stdint.h>

#include "scale/preload/preload.h"

typedef long w; /* one machine word of argument */

#define MPI_WRAP_PRIM(name, prim, params, args)                                                     \
	int name params;                                                                           \
	int name params                                                                            \
	{                                                                                          \
		static int (*real_) params;                                                        \
		if (!real_)                                                                        \
			real_ = (int (*) params)preload_real(#name);                               \
		struct preload_thread *t_ = preload_counted();                                     \
		preload_rt_begin(t_, prim, (uintptr_t)__builtin_return_address(0), 0);             \
		int r_ = real_ args;                                                               \
		preload_rt_end(t_);                                                                \
		return r_;                                                                         \
	}
#define MPI_WRAP(name, params, args) MPI_WRAP_PRIM(name, PRIM_MPI, params, args)

#define P1 (w a1)
#define P2 (w a1, w a2)
#define P3 (w a1, w a2, w a3)
#define P4 (w a1, w a2, w a3, w a4)
#define P5 (w a1, w a2, w a3, w a4, w a5)
#define P6 (w a1, w a2, w a3, w a4, w a5, w a6)
#define P7 (w a1, w a2, w a3, w a4, w a5, w a6, w a7)
#define P8 (w a1, w a2, w a3, w a4, w a5, w a6, w a7, w a8)
#define P9 (w a1, w a2, w a3, w a4, w a5, w a6, w a7, w a8, w a9)
#define P12 (w a1, w a2, w a3, w a4, w a5, w a6, w a7, w a8, w a9, w a10, w a11, w a12)
#define A1 (a1)
#define A2 (a1, a2)
#define A3 (a1, a2, a3)
#define A4 (a1, a2, a3, a4)
#define A5 (a1, a2, a3, a4, a5)
#define A6 (a1, a2, a3, a4, a5, a6)
#define A7 (a1, a2, a3, a4, a5, a6, a7)
#define A8 (a1, a2, a3, a4, a5, a6, a7, a8)
#define A9 (a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define A12 (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)

/* start-up and shutdown: the runtime's own sleeps and polls inside them are not counted again */
MPI_WRAP_PRIM(MPI_Init, PRIM_MPI_INIT, P2, A2)
MPI_WRAP_PRIM(MPI_Init_thread, PRIM_MPI_INIT, P4, A4)
MPI_WRAP_PRIM(MPI_Finalize, PRIM_MPI_INIT, (void), ())

MPI_WRAP(MPI_Send, P6, A6)
MPI_WRAP(MPI_Ssend, P6, A6)
MPI_WRAP(MPI_Recv, P7, A7)
MPI_WRAP(MPI_Sendrecv, P12, A12)
MPI_WRAP(MPI_Sendrecv_replace, P9, A9)
MPI_WRAP(MPI_Wait, P2, A2)
MPI_WRAP(MPI_Waitall, P3, A3)
MPI_WRAP(MPI_Waitany, P4, A4)
MPI_WRAP(MPI_Waitsome, P5, A5)
MPI_WRAP(MPI_Probe, P4, A4)
MPI_WRAP(MPI_Barrier, P1, A1)
MPI_WRAP(MPI_Bcast, P5, A5)
MPI_WRAP(MPI_Reduce, P7, A7)
MPI_WRAP(MPI_Allreduce, P6, A6)
MPI_WRAP(MPI_Gather, P8, A8)
MPI_WRAP(MPI_Gatherv, P9, A9)
MPI_WRAP(MPI_Allgather, P7, A7)
MPI_WRAP(MPI_Allgatherv, P8, A8)
MPI_WRAP(MPI_Scatter, P8, A8)
MPI_WRAP(MPI_Scatterv, P9, A9)
MPI_WRAP(MPI_Alltoall, P7, A7)
MPI_WRAP(MPI_Alltoallv, P9, A9)
MPI_WRAP(MPI_Reduce_scatter, P6, A6)
MPI_WRAP(MPI_Reduce_scatter_block, P6, A6)
MPI_WRAP(MPI_Scan, P6, A6)
MPI_WRAP(MPI_Exscan, P6, A6)
