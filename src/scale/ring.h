/* perf_event_open ring buffers, as the samplers of scale/ read them (spin.c, sched.c): open an
 * event with its buffer, hand each new record to a callback, close. */
#ifndef ARCHSCOPE_SCALE_RING_H
#define ARCHSCOPE_SCALE_RING_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

struct scale_ring {
	int fd;           /* -1: not open */
	void *base;       /* the metadata page, then `pages` data pages */
	size_t page, pages;
};

/* Opens attr for (pid, cpu) with a buffer of `pages` data pages (a power of two). 0, or -errno
 * (r->fd is -1 then). */
int scale_ring_open(struct scale_ring *r, struct perf_event_attr *attr, int pid, int cpu, size_t pages);
/* Stops the event counting (the buffer stays readable). */
void scale_ring_stop(struct scale_ring *r);
void scale_ring_close(struct scale_ring *r);

/* Calls fn for each record written since the last call (rec: the whole record, header first, at
 * most 1024 bytes; longer ones are skipped). */
typedef void (*scale_ring_fn)(void *ctx, const struct perf_event_header *h, const uint8_t *rec);
void scale_ring_drain(struct scale_ring *r, scale_ring_fn fn, void *ctx);


#endif
