/* Reads one key of /proc/cpuinfo (see cpuinfo.h). */
#include "topo/cpuinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int topo_cpuinfo(const char *key, char *out, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return -1;
	char *line = NULL;
	size_t cap = 0, klen = strlen(key);
	int rc = -1;
	while (rc && getline(&line, &cap, f) > 0) {
		if (strncmp(line, key, klen) != 0)
			continue;
		char *p = line + klen;
		p += strspn(p, " \t");
		if (*p != ':')
			continue; /* "model" must not match "model name" */
		p += 1 + strspn(p + 1, " \t");
		p[strcspn(p, "\n")] = '\0';
		snprintf(out, len, "%s", p);
		rc = 0;
	}
	free(line);
	fclose(f);
	return rc;
}
