/* The modules a program unloads before it exits (dlclose: Open MPI's plugins): their executable
 * segments, kept so the record still lists them ("M" lines) and archscope can name call sites
 * and samples in them (lib+0xoff at least, file:line while the file is on disk). The loader's
 * list is read just before and after each dlclose that succeeds; segments gone from it are kept.
 * dlopen itself is not wrapped: glibc resolves a relative name through its caller's RUNPATH and
 * $ORIGIN, which a wrapper would change to this library's. */
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "scale/preload/preload.h"

#define SEGS_MAX 1024 /* live segments read at once (a larger list: the rest are not compared) */
#define GONE_MAX 256  /* unloaded segments kept */

struct seg {
	uint64_t start, end, off;
	char path[256];
};

static struct seg before[SEGS_MAX], after[SEGS_MAX], gone[GONE_MAX];
static size_t nbefore, nafter, ngone;
static int busy; /* one dlclose at a time through the tables (a spin lock: no wrapped call) */
static __thread int closing; /* this thread is in dlclose (a destructor of the module calls it) */

struct collect {
	struct seg *segs;
	size_t *n;
};

static int collect_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	struct collect *c = arg;
	const char *name = info->dlpi_name;
	char path[1024];
	if (!name || name[0] == 0)
		return 0; /* the program itself: never unloaded */
	if (name[0] != '/') {
		if (!realpath(name, path))
			return 0;
		name = path;
	}
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	for (int i = 0; i < info->dlpi_phnum && *c->n < SEGS_MAX; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || !ph->p_memsz)
			continue;
		struct seg *s = &c->segs[(*c->n)++];
		uint64_t start = info->dlpi_addr + ph->p_vaddr;
		s->start = start & ~(page - 1);
		s->end = (start + ph->p_memsz + page - 1) & ~(page - 1);
		s->off = ph->p_offset & ~(page - 1);
		size_t n = 0;
		for (; name[n] && n + 1 < sizeof(s->path); n++)
			s->path[n] = name[n];
		s->path[n] = 0;
	}
	return 0;
}

static int same(const struct seg *a, const struct seg *b)
{
	return a->start == b->start && a->end == b->end && !strcmp(a->path, b->path);
}

int dlclose(void *handle)
{
	REAL(dlclose);
	if (!real_)
		return -1;
	if (closing)
		return real_(handle);
	closing = 1;
	while (__atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE))
		syscall(SYS_sched_yield); /* not sched_yield: that is wrapped, a wait of the program */
	nbefore = 0;
	dl_iterate_phdr(collect_object, &(struct collect){ before, &nbefore });
	int rc = real_(handle);
	if (rc == 0) {
		nafter = 0;
		dl_iterate_phdr(collect_object, &(struct collect){ after, &nafter });
		for (size_t i = 0; i < nbefore && ngone < GONE_MAX; i++) {
			size_t j = 0;
			while (j < nafter && !same(&before[i], &after[j]))
				j++;
			if (j == nafter)
				gone[ngone++] = before[i];
		}
	}
	__atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
	closing = 0;
	return rc;
}

int preload_unloaded(size_t k, uint64_t *start, uint64_t *end, uint64_t *off, const char **path)
{
	if (k >= __atomic_load_n(&ngone, __ATOMIC_ACQUIRE))
		return 0;
	*start = gone[k].start;
	*end = gone[k].end;
	*off = gone[k].off;
	*path = gone[k].path;
	return 1;
}
