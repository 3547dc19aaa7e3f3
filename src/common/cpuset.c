/* CPU lists, the allowed set and pinning (see cpuset.h). */
#include "common/cpuset.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_cpu(const char *s, const char *end, int *out)
{
	if (s == end)
		return -1;
	long v = 0;
	for (const char *p = s; p < end; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (*p - '0');
		if (v >= AS_MAX_CPUS)
			return -2;
	}
	*out = (int)v;
	return 0;
}

int cpulist_parse(const char *text, struct as_cpulist *out, struct as_error *err)
{
	unsigned char seen[AS_MAX_CPUS] = {0};
	out->n = 0;
	if (!text || !*text)
		return as_error_set(err, -EINVAL, "empty cpu list");
	const char *p = text;
	while (*p) {
		const char *comma = strchr(p, ',');
		const char *end = comma ? comma : p + strlen(p);
		const char *dash = memchr(p, '-', (size_t)(end - p));
		int lo, hi, rc;
		int len = (int)(end - p);
		if (dash) {
			if ((rc = parse_cpu(p, dash, &lo)) || (rc = parse_cpu(dash + 1, end, &hi)))
				goto bad;
			if (hi < lo)
				return as_error_set(err, -EINVAL, "cpu list '%s': reversed range '%.*s'", text, len, p);
		} else {
			if ((rc = parse_cpu(p, end, &lo)))
				goto bad;
			hi = lo;
		}
		for (int c = lo; c <= hi; c++) {
			if (seen[c]) /* "0,0" asks for two threads on one CPU: say so, do not drop one */
				return as_error_set(err, -EINVAL, "cpu list '%s': cpu %d is listed twice", text, c);
			seen[c] = 1;
		}
		p = comma ? comma + 1 : end;
		if (comma && !*p)
			return as_error_set(err, -EINVAL, "cpu list '%s': empty item at the end", text);
		continue;
bad:
		if (rc == -2)
			return as_error_set(err, -EINVAL, "cpu list '%s': cpu number in '%.*s' is too large (max %d)",
					    text, len, p, AS_MAX_CPUS - 1);
		return as_error_set(err, -EINVAL, "cpu list '%s': '%.*s' is not a cpu number or range",
				    text, len, p);
	}
	for (int c = 0; c < AS_MAX_CPUS; c++)
		if (seen[c])
			out->cpu[out->n++] = c;
	return 0;
}

int cpulist_allowed(struct as_cpulist *out, struct as_error *err)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return as_error_set(err, -errno, "cannot read the allowed cpu set: %s", strerror(errno));
	out->n = 0;
	for (int c = 0; c < AS_MAX_CPUS && c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			out->cpu[out->n++] = c;
	return 0;
}

int cpulist_check_allowed(const struct as_cpulist *list, const struct as_cpulist *allowed,
			  struct as_error *err)
{
	for (int i = 0; i < list->n; i++) {
		int ok = 0;
		for (int j = 0; j < allowed->n && !ok; j++)
			ok = allowed->cpu[j] == list->cpu[i];
		if (!ok) {
			char buf[256];
			return as_error_set(err, -EINVAL, "cpu %d is not in the allowed set (%s)", list->cpu[i],
					    cpulist_format(allowed, buf, sizeof(buf)));
		}
	}
	return 0;
}

char *cpulist_format(const struct as_cpulist *list, char *buf, size_t len)
{
	size_t pos = 0;
	buf[0] = '\0';
	for (int i = 0; i < list->n;) {
		int j = i;
		while (j + 1 < list->n && list->cpu[j + 1] == list->cpu[j] + 1)
			j++;
		int w = j > i ? snprintf(buf + pos, len - pos, "%s%d-%d", pos ? "," : "", list->cpu[i], list->cpu[j])
			      : snprintf(buf + pos, len - pos, "%s%d", pos ? "," : "", list->cpu[i]);
		if (w < 0 || (size_t)w >= len - pos)
			break;
		pos += (size_t)w;
		i = j + 1;
	}
	return buf;
}

int cpu_pin_self(int cpu, struct as_error *err)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	int rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (rc)
		return as_error_set(err, -rc, "cannot pin thread to cpu %d: %s", cpu, strerror(rc));
	return 0;
}

int cpu_allow_self(const struct as_cpulist *list, struct as_error *err)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	for (int i = 0; i < list->n; i++)
		CPU_SET(list->cpu[i], &set);
	int rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (rc)
		return as_error_set(err, -rc, "cannot set the thread's cpu set: %s", strerror(rc));
	return 0;
}
