/* An osu-style reference for bench/cluster-vs-osu.sh, written from the OSU micro-benchmarks'
 * documentation (not their code): between ranks 0 and 1,
 *   osu_latency: ping-pong of blocking sends, `skip` round trips untimed, then `loop` timed; the
 *                latency is the timed time / (2 loop);
 *   osu_bw:      rank 0 posts a window of 64 non-blocking sends, rank 1 a window of 64 non-blocking
 *                receives into one buffer; both wait for all, rank 1 answers with a 4-byte message;
 *                bandwidth = bytes x 64 x loop / the timed time;
 *   osu_bibw:    both ranks post the window of receives and the window of sends at once and wait for
 *                all; bandwidth = 2 x bytes x 64 x loop / time.
 * Counts as OSU documents them: latency skip 100, loop 10,000 up to 8 KiB, 10 and 1,000 above;
 * bandwidth skip 10, loop 100 up to 8 KiB, 2 and 20 above.
 * With -short first: a tenth of those counts (skip at least 1), the timed ones capped at 32 MiB moved
 * per size and figure, at least 10 round trips and 2 windows (what archscope cluster does without
 * --osu-counts).
 * Usage: mpirun -np 2 osu-ref [-short] SIZE... ; prints "bytes latency_us bw_gbs bibw_gbs" per size. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW 64

static int shortened;

static void counts(int n, int lat, int *skip, int *loop)
{
	int large = n > 8192;
	*skip = lat ? (large ? 10 : 100) : (large ? 2 : 10);
	*loop = lat ? (large ? 1000 : 10000) : (large ? 20 : 100);
	if (!shortened)
		return;
	*skip = *skip / 10 > 1 ? *skip / 10 : 1;
	*loop /= 10;
	double per = lat ? 2.0 * n : (double)n * WINDOW;
	int cap = (int)(33554432.0 / (per > 1 ? per : 1)), least = lat ? 10 : 2;
	if (cap < *loop)
		*loop = cap;
	if (*loop < least)
		*loop = least;
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int me, np;
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	if (np != 2) {
		if (me == 0)
			fprintf(stderr, "osu-ref: run on exactly 2 ranks\n");
		MPI_Finalize();
		return 2;
	}
	int first = 1;
	if (argc > 1 && strcmp(argv[1], "-short") == 0)
		shortened = 1, first = 2;
	size_t most = 1;
	for (int a = first; a < argc; a++)
		if ((size_t)atol(argv[a]) > most)
			most = (size_t)atol(argv[a]);
	char *s = malloc(most), *r = malloc(most), ack[4] = { 0 };
	memset(s, 'a', most);
	memset(r, 'b', most);
	MPI_Request rq[2 * WINDOW];
	int peer = 1 - me;
	for (int a = first; a < argc; a++) {
		int n = atoi(argv[a]), skip, loop;
		counts(n, 1, &skip, &loop);
		double t0 = 0, lat, bw, bibw;
		MPI_Barrier(MPI_COMM_WORLD);
		for (int i = 0; i < skip + loop; i++) {
			if (i == skip)
				t0 = MPI_Wtime();
			if (me == 0) {
				MPI_Send(s, n, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
				MPI_Recv(r, n, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			} else {
				MPI_Recv(r, n, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				MPI_Send(s, n, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
			}
		}
		lat = (MPI_Wtime() - t0) * 1e6 / (2.0 * loop);
		counts(n, 0, &skip, &loop);
		MPI_Barrier(MPI_COMM_WORLD);
		for (int i = 0; i < skip + loop; i++) {
			if (i == skip)
				t0 = MPI_Wtime();
			for (int w = 0; w < WINDOW; w++) {
				if (me == 0)
					MPI_Isend(s, n, MPI_CHAR, peer, 2, MPI_COMM_WORLD, &rq[w]);
				else
					MPI_Irecv(r, n, MPI_CHAR, peer, 2, MPI_COMM_WORLD, &rq[w]);
			}
			MPI_Waitall(WINDOW, rq, MPI_STATUSES_IGNORE);
			if (me == 0)
				MPI_Recv(ack, 4, MPI_CHAR, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			else
				MPI_Send(ack, 4, MPI_CHAR, peer, 3, MPI_COMM_WORLD);
		}
		bw = (double)n * WINDOW * loop / ((MPI_Wtime() - t0) * 1e9);
		MPI_Barrier(MPI_COMM_WORLD);
		for (int i = 0; i < skip + loop; i++) {
			if (i == skip)
				t0 = MPI_Wtime();
			for (int w = 0; w < WINDOW; w++)
				MPI_Irecv(r, n, MPI_CHAR, peer, 4, MPI_COMM_WORLD, &rq[w]);
			for (int w = 0; w < WINDOW; w++)
				MPI_Isend(s, n, MPI_CHAR, peer, 4, MPI_COMM_WORLD, &rq[WINDOW + w]);
			MPI_Waitall(2 * WINDOW, rq, MPI_STATUSES_IGNORE);
		}
		bibw = 2.0 * n * WINDOW * loop / ((MPI_Wtime() - t0) * 1e9);
		if (me == 0)
			printf("%d %.6g %.6g %.6g\n", n, lat, bw, bibw);
	}
	free(s);
	free(r);
	MPI_Finalize();
	return 0;
}
