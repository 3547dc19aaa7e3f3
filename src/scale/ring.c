/* perf_event_open ring buffers (ring.h). */
#include "scale/ring.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int scale_ring_open(struct scale_ring *r, struct perf_event_attr *attr, int pid, int cpu, size_t pages)
{
	r->fd = -1;
	r->base = NULL;
	r->page = (size_t)sysconf(_SC_PAGESIZE);
	r->pages = pages;
	int fd = (int)syscall(SYS_perf_event_open, attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	void *m = mmap(NULL, (pages + 1) * r->page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		int e = errno;
		close(fd);
		return -e;
	}
	r->fd = fd;
	r->base = m;
	return 0;
}

void scale_ring_stop(struct scale_ring *r)
{
	if (r->fd >= 0)
		ioctl(r->fd, PERF_EVENT_IOC_DISABLE, 0);
}

void scale_ring_close(struct scale_ring *r)
{
	if (r->base)
		munmap(r->base, (r->pages + 1) * r->page);
	if (r->fd >= 0)
		close(r->fd);
	r->base = NULL;
	r->fd = -1;
}

void scale_ring_drain(struct scale_ring *r, scale_ring_fn fn, void *ctx)
{
	struct perf_event_mmap_page *meta = r->base;
	if (!meta)
		return;
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE), tail = meta->data_tail;
	const uint8_t *data = (const uint8_t *)meta + r->page;
	size_t size = r->pages * r->page;
	uint8_t rec[1024];
	while (tail < head) {
		struct perf_event_header h;
		for (size_t i = 0; i < sizeof(h); i++)
			((uint8_t *)&h)[i] = data[(tail + i) % size];
		if (h.size < sizeof(h))
			break; /* a corrupt header: stop here rather than loop */
		if (h.size <= sizeof(rec)) {
			for (size_t i = 0; i < h.size; i++)
				rec[i] = data[(tail + i) % size];
			fn(ctx, &h, rec);
		}
		tail += h.size;
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}
