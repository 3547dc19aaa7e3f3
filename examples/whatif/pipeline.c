/* whatif's known answer for process trees: a parent process (the slow stage, slow_stage's line)
 * writes items into a pipe that a forked child (the fast stage, fast_stage's line, half the
 * work per item) reads with read(2). The slow stage is the critical path: its curve rises. The fast
 * stage's curve is flat only because the delays its samples insert pause the parent, another
 * process (the shared delay count). Usage: pipeline [ITEMS] (default 200, 1.2 ms of work each). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile double sink;

/* seed: the item, so that no call is the same as another (the compiler would do one for all) */
__attribute__((noinline)) static double slow_stage(long n, double seed)
{
	double x = seed;
	for (long i = 0; i < n; i++) x += (double)i * 1e-9; /* the slow stage's line */
	return x;
}

__attribute__((noinline)) static double fast_stage(long n, double seed)
{
	double x = seed;
	for (long i = 0; i < n; i++) x += (double)i * 3e-9; /* the fast stage's line */
	return x;
}

#define WORK 1000000L /* additions per item in the slow stage */

int main(int argc, char **argv)
{
	long items = argc > 1 ? atol(argv[1]) : 200;
	int fd[2];
	if (items < 1 || pipe(fd) != 0)
		return 2;
	pid_t pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		close(fd[1]);
		double item, sum = 0;
		while (read(fd[0], &item, sizeof(item)) == (ssize_t)sizeof(item))
			sum += fast_stage(WORK / 2, item);
		sink = sum;
		printf("%g\n", sink);
		_exit(0);
	}
	close(fd[0]);
	for (long i = 0; i < items; i++) {
		double v = slow_stage(WORK, (double)i);
		if (write(fd[1], &v, sizeof(v)) != (ssize_t)sizeof(v))
			return 1;
	}
	close(fd[1]);
	int st;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
