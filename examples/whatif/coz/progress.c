/* A program instrumented for Coz (coz.h from Debian's coz-profiler), unchanged: each item is one
 * COZ_PROGRESS_NAMED("items") visit and one COZ_BEGIN("item")/COZ_END("item") transaction. The
 * process forks once and parent and child each do ITEMS items, so a run counts 2 x ITEMS visits
 * when the counters are shared by the process tree (whatif: one counter in the shared file).
 * Build: cc -O2 -g progress.c -o progress -ldl. Usage: progress [ITEMS] (default 100). */
#include <coz.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile double sink;

__attribute__((noinline)) static double item_work(long n, double seed)
{
	double x = seed;
	for (long i = 0; i < n; i++) x += (double)i * 1e-9; /* the item's line */
	return x;
}

int main(int argc, char **argv)
{
	long items = argc > 1 ? atol(argv[1]) : 100;
	if (items < 1)
		return 2;
	pid_t pid = fork();
	if (pid < 0)
		return 1;
	for (long i = 0; i < items; i++) {
		COZ_BEGIN("item");
		sink += item_work(300000, (double)i);
		COZ_END("item");
		COZ_PROGRESS_NAMED("items");
	}
	if (pid == 0)
		_exit(0);
	int st;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
