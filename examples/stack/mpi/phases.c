/* An MPI program with a known delimiter, for `archscope stack -- mpirun -np {T} ...`: UNITS units
 * of work in 20 phases, each phase split unevenly over the ranks (rank r gets r + 1 shares), an
 * MPI_Allreduce after each. The ranks that finish a phase early wait in the Allreduce, which on
 * one node polls shared memory (Open MPI, MPICH): spinning ("mpi"). Built by the tests with mpicc:
 *   mpicc -O2 -g -o phases examples/stack/mpi/phases.c
 * Usage: phases [UNITS] (default 2000, about 0.2 s of work on one rank). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t work(uint64_t x, long units)
{
	for (long u = 0; u < units; u++)
		for (int i = 0; i < 40000; i++)
			x = x * 6364136223846793005u + 1442695040888963407u;
	return x;
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	long units = argc > 1 ? atol(argv[1]) : 2000;
	long shares = (long)size * (size + 1) / 2; /* ranks get 1, 2, ..., size shares */
	uint64_t x = (uint64_t)rank, odd = 0, all = 0;
	for (int phase = 0; phase < 20; phase++) {
		long mine = units / 20 * (rank + 1) / shares;
		x = work(x, mine);
		uint64_t bit = x & 1;
		MPI_Allreduce(&bit, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
		odd += all;
	}
	if (rank == 0)
		printf("mpi phases: %ld units on %d ranks, %llu odd\n", units, size, (unsigned long long)odd);
	MPI_Finalize();
	return 0;
}
