// The barrier of barrier.c, waited at inside a member function of a class in a namespace, with a
// mangled name longer than 100 characters (a C++ code's, like GROMACS's and LAMMPS's): `stack`
// names each site (the barrier, or the join) by its demangled, whole name (t0119). Built by the test with g++ (the project's
// own build is C only): "cxx-namespace THREADS UNITS".
#include "common.h"

namespace archscope_example_molecular_dynamics {
namespace communication {

template <typename Real> class NeighbourHaloExchange {
public:
	explicit NeighbourHaloExchange(pthread_barrier_t *b) : barrier_(b) {}
	// the wait site: not inlined, so its return address lies in this function
	__attribute__((noinline)) void reverse_communicate_forces(Real *forces, long count)
	{
		forces[count % 4] += 1;
		// work after the wait: the call is no tail call, its return address stays in here
		if (pthread_barrier_wait(barrier_) == PTHREAD_BARRIER_SERIAL_THREAD)
			forces[0] += 0.5;
	}

private:
	pthread_barrier_t *barrier_;
};

// the fork and the join site: example_fork_join's, in the namespace too
class RankTeam {
public:
	__attribute__((noinline)) static void start_all_ranks_and_wait_for_them(void *(*fn)(void *))
	{
		pthread_t th[1024];
		for (long i = 0; i < example_threads; i++)
			if (pthread_create(&th[i], NULL, fn, (void *)i) != 0) {
				perror("pthread_create");
				exit(1);
			}
		for (int i = 0; i < example_threads; i++)
			pthread_join(th[i], NULL);
	}
};

} // namespace communication
} // namespace archscope_example_molecular_dynamics

using archscope_example_molecular_dynamics::communication::NeighbourHaloExchange;
using archscope_example_molecular_dynamics::communication::RankTeam;

static pthread_barrier_t barrier;
static uint64_t result[1024];

#define PHASES 20

static void *worker(void *arg)
{
	long id = (long)arg;
	uint64_t x = (uint64_t)id;
	double forces[4] = {0, 0, 0, 0};
	NeighbourHaloExchange<double> halo(&barrier);
	long per = example_units / PHASES / (example_threads + 3);
	if (per < 1)
		per = 1;
	for (int ph = 0; ph < PHASES; ph++) {
		long n = ph % example_threads == id ? 4 * per : per;
		for (long u = 0; u < n; u++)
			x = example_work(x + (uint64_t)u);
		halo.reverse_communicate_forces(forces, n);
	}
	result[id] = x + (uint64_t)forces[0];
	return NULL;
}

int main(int argc, char **argv)
{
	example_args(argc, argv);
	pthread_barrier_init(&barrier, NULL, (unsigned)example_threads);
	RankTeam::start_all_ranks_and_wait_for_them(worker);
	example_print_odd("cxx-namespace", result);
	return 0;
}
