/* One process per task: the parent forks THREADS children, each does its share of the work and
 * ends through _exit, and the parent waits for them (waitpid): stack follows every process, the
 * parent's wait is waiting for its children (imbalance when a slot stays idle), the children's
 * work is base. */
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

int main(int argc, char **argv)
{
	example_args(argc, argv);
	pid_t pid[1024];
	for (int i = 0; i < example_threads; i++) {
		pid[i] = fork();
		if (pid[i] < 0) {
			perror("fork");
			return 1;
		}
		if (pid[i] == 0) {
			uint64_t x = (uint64_t)i;
			for (long u = i; u < example_units; u += example_threads)
				x = example_work(x + (uint64_t)u);
			_exit((int)(x & 1)); /* the result decides the status: the work stays */
		}
	}
	int odd = 0;
	for (int i = 0; i < example_threads; i++) {
		int st;
		if (waitpid(pid[i], &st, 0) != pid[i] || !WIFEXITED(st)) {
			fprintf(stderr, "fork-tasks: child %d failed\n", i);
			return 1;
		}
		odd += WEXITSTATUS(st);
	}
	printf("fork-tasks: %ld units done in %d processes, %d odd results\n", example_units, example_threads, odd);
	return 0;
}
