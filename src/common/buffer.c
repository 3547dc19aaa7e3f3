/* Measurement buffers (see buffer.h). */
#include "common/buffer.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/number.h"

static int alloc(struct buffer *buf, size_t size, enum huge_policy huge, int sparse, struct as_error *err)
{
	memset(buf, 0, sizeof(*buf));
	if (size == 0)
		return as_error_set(err, -EINVAL, "cannot allocate an empty buffer");
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	if (size > SIZE_MAX - page)
		return as_error_set(err, -ENOMEM, "buffer of %zu bytes is too large", size);
	size_t avail = buffer_mem_available();
	if (!sparse && avail && size > avail) {
		char a[32], b[32];
		return as_error_set(err, -ENOMEM, "buffer of %s is larger than the available memory (%s)",
				    buffer_format_size(size, a, sizeof(a)), buffer_format_size(avail, b, sizeof(b)));
	}
	size_t mapped = (size + page - 1) / page * page;
	/* Huge pages only back whole aligned 2 MiB spans: a buffer that asks for them starts on one
	 * (mapped with room to spare, the slack unmapped), so that even a buffer of 1 MiB is one
	 * physically contiguous page, not 4 KiB pages scattered over the cache's sets. */
	size_t align = huge == HUGE_ALWAYS && mapped <= SIZE_MAX - BUFFER_HUGE_BYTES ? BUFFER_HUGE_BYTES : 0;
	void *p = mmap(NULL, mapped + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		char a[32];
		return as_error_set(err, -errno, "cannot map a buffer of %s: %s",
				    buffer_format_size(size, a, sizeof(a)), strerror(errno));
	}
	if (align) {
		uintptr_t start = ((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1);
		size_t head = start - (uintptr_t)p;
		if (head)
			munmap(p, head);
		if (align - head)
			munmap((char *)start + mapped, align - head);
		p = (void *)start;
	}
	if (huge == HUGE_NEVER)
		madvise(p, mapped, MADV_NOHUGEPAGE);
	else if (huge == HUGE_ALWAYS)
		madvise(p, mapped, MADV_HUGEPAGE);
	buf->data = p;
	buf->size = size;
	buf->mapped = mapped;
	buf->huge = huge;
	return 0;
}

int buffer_alloc(struct buffer *buf, size_t size, enum huge_policy huge, struct as_error *err)
{
	return alloc(buf, size, huge, 0, err);
}

int buffer_alloc_sparse(struct buffer *buf, size_t size, size_t touched, enum huge_policy huge,
			struct as_error *err)
{
	size_t avail = buffer_mem_available();
	if (avail && touched > avail) {
		char a[32], b[32];
		return as_error_set(err, -ENOMEM, "touching %s is more than the available memory (%s)",
				    buffer_format_size(touched, a, sizeof(a)), buffer_format_size(avail, b, sizeof(b)));
	}
	return alloc(buf, size, huge, 1, err);
}

void buffer_release(struct buffer *buf)
{
	if (buf->data)
		munmap(buf->data, buf->mapped);
	memset(buf, 0, sizeof(*buf));
}

double buffer_huge_fraction(const struct buffer *buf)
{
	if (!buf->data || !buf->mapped)
		return NAN;
	FILE *f = fopen("/proc/self/smaps", "r");
	if (!f)
		return NAN;
	uintptr_t lo = (uintptr_t)buf->data, hi = lo + buf->mapped;
	char line[512];
	int inside = 0, seen = 0;
	unsigned long long kb, huge_kb = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a, b;
		if (sscanf(line, "%llx-%llx ", &a, &b) == 2 && strchr(line, '-') < strchr(line, ' ')) {
			/* the mapping may have been split in several entries (madvise, partial THP) */
			inside = a >= lo && b <= hi;
			seen |= inside;
		} else if (inside && sscanf(line, "AnonHugePages: %llu kB", &kb) == 1) {
			huge_kb += kb;
		}
	}
	fclose(f);
	return seen ? (double)huge_kb * 1024 / (double)buf->mapped : NAN;
}

static size_t meminfo_bytes(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "r");
	if (!f)
		return 0;
	char line[256], fmt[64];
	unsigned long long kb = 0;
	snprintf(fmt, sizeof(fmt), "%s: %%llu kB", key);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, fmt, &kb) == 1)
			break;
	fclose(f);
	return (size_t)kb * 1024;
}

size_t buffer_mem_available(void)
{
	return meminfo_bytes("MemAvailable");
}

size_t buffer_mem_total(void)
{
	return meminfo_bytes("MemTotal");
}

int buffer_parse_size(const char *text, size_t *out, struct as_error *err)
{
	static const struct { const char *unit; double mult; } units[] = {
		{ "", 1 }, { "B", 1 },
		{ "kB", 1e3 }, { "KB", 1e3 }, { "MB", 1e6 }, { "GB", 1e9 }, { "TB", 1e12 },
		{ "KiB", 1024.0 }, { "MiB", 1048576.0 }, { "GiB", 1073741824.0 }, { "TiB", 1099511627776.0 },
		{ "k", 1024.0 }, { "K", 1024.0 }, { "M", 1048576.0 }, { "G", 1073741824.0 },
	};
	if (!text || !*text)
		return as_error_set(err, -EINVAL, "empty size");
	const char *end;
	double v;
	int nrc = number_scan_double(text, &v, &end);
	if (nrc == -ERANGE)
		return as_error_set(err, -ERANGE, "size '%s' is too large", text);
	if (nrc || *text == '-' || *text == '+')
		return as_error_set(err, -EINVAL, "size '%s': expected a decimal number with an optional unit (B, kB, KiB, MB, MiB, GB, GiB)", text);
	while (*end == ' ')
		end++;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit) == 0) {
			double bytes = v * units[i].mult;
			if (bytes >= 18446744073709549568.0)
				return as_error_set(err, -ERANGE, "size '%s' is too large", text);
			*out = (size_t)(bytes + 0.5);
			return 0;
		}
	}
	return as_error_set(err, -EINVAL, "size '%s': unknown unit '%s' (use B, kB, KiB, MB, MiB, GB, GiB)", text, end);
}

char *buffer_format_size(size_t bytes, char *buf, size_t len)
{
	static const char *unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	int u = 0;
	while (v >= 1024.0 && u < 4) {
		v /= 1024.0;
		u++;
	}
	if (v == (double)(long long)v)
		snprintf(buf, len, "%lld %s", (long long)v, unit[u]);
	else
		snprintf(buf, len, "%.3g %s", v, unit[u]);
	return buf;
}

const char *huge_policy_name(enum huge_policy p)
{
	switch (p) {
	case HUGE_NEVER: return "never (4 KiB pages, MADV_NOHUGEPAGE)";
	case HUGE_ALWAYS: return "always (MADV_HUGEPAGE)";
	default: return "system default";
	}
}
