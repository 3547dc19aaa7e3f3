/* The associativity probe (BlackjackBench §3.1.3): K addresses a level's size apart in several
 * sets, K = 1..max_k; the walk leaves the level once K exceeds its ways. */
#include "probe/assoc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/rng.h"

int probe_assoc_run(const struct probe_opts *o, size_t level_bytes, size_t lower_bytes, size_t line,
		    int max_k, struct probe_curve *out, struct as_error *err)
{
	if (level_bytes < line || max_k < 2)
		return as_error_set(err, -EINVAL, "probe assoc: level of %zu bytes is too small", level_bytes);
	/* M sets, one line apart: M lines must stay within one way of this level (level/32 bytes
	 * covers up to 32 ways) and should overflow the lower level at K = 1. */
	size_t m_max = level_bytes / 32 / line;
	size_t m = lower_bytes ? 2 * lower_bytes / line : 16;
	if (m > m_max)
		m = m_max;
	if (m < 1)
		m = 1;
	size_t bytes = (size_t)max_k * level_bytes;
	struct buffer buf;
	int rc = buffer_alloc(&buf, bytes, o->huge, err);
	if (rc)
		return as_error_prefix(err, "probe assoc: "), rc;
	size_t *off = malloc((size_t)max_k * m * sizeof(size_t));
	if (!off) {
		buffer_release(&buf);
		return as_error_set(err, -ENOMEM, "probe assoc: out of memory");
	}
	struct rng r;
	rng_init(&r, o->seed);
	for (int k = 1; k <= max_k && !probe_opts_stopped(o); k++) {
		char label[64], sz[32];
		snprintf(label, sizeof(label), "%s level, K = %d", buffer_format_size(level_bytes, sz, sizeof(sz)), k);
		probe_opts_report(o, "assoc", label, k - 1, max_k);
		size_t count = 0;
		for (int a = 0; a < k; a++)
			for (size_t s = 0; s < m; s++)
				off[count++] = (size_t)a * level_bytes + s * line;
		rng_shuffle(&r, off, count);
		struct chase_stats st;
		probe_slots_measure(o, buf.data, off, count, &st);
		if ((rc = probe_curve_add(out, k, st.min_ns, st.median_ns)) != 0)
			break;
	}
	free(off);
	buffer_release(&buf);
	return rc ? as_error_set(err, rc, "probe assoc: out of memory") : 0;
}
