/* The OS's settings beside measurements (see system.h). */
#include "topo/system.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The first line of root/path into buf without its newline; "" when unreadable. */
static void read_line(const char *root, const char *path, char *buf, size_t len)
{
	char full[512];
	snprintf(full, sizeof(full), "%s%s", root ? root : "", path);
	buf[0] = '\0';
	FILE *f = fopen(full, "r");
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

int topo_system_read(struct topo_system *s, int cpu, const char *root)
{
	char line[256], path[128];
	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu < 0 ? 0 : cpu);
	read_line(root, path, s->governor, sizeof(s->governor));
	/* "always [madvise] never": the word in brackets */
	read_line(root, "/sys/kernel/mm/transparent_hugepage/enabled", line, sizeof(line));
	char *open = strchr(line, '['), *close = open ? strchr(open, ']') : NULL;
	if (open && close)
		snprintf(s->thp, sizeof(s->thp), "%.*s", (int)(close - open - 1), open + 1);
	read_line(root, "/sys/devices/system/cpu/smt/control", s->smt, sizeof(s->smt));
	read_line(root, "/sys/devices/system/cpu/smt/active", line, sizeof(line));
	s->smt_active = !strcmp(line, "1") ? 1 : !strcmp(line, "0") ? 0 : -1;
	read_line(root, "/proc/loadavg", line, sizeof(line));
	if (sscanf(line, "%lf", &s->loadavg1) != 1)
		s->loadavg1 = NAN;
	return 0;
}
