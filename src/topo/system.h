/* The OS's settings that change what measurements mean, as it reports them (sysfs, procfs): the
 * CPU frequency governor, transparent huge pages, SMT and the load average. Shown beside results
 * (the JSON envelope's machine block, the report's warnings); they never decide an answer. */
#ifndef ARCHSCOPE_TOPO_SYSTEM_H
#define ARCHSCOPE_TOPO_SYSTEM_H

struct topo_system {
	char governor[32]; /* cpufreq scaling_governor of CPU `cpu` ("" when there is no cpufreq) */
	char thp[32];      /* transparent huge pages: the selected word of .../enabled ("always",
			      "madvise", "never"; "" when absent) */
	char smt[32];      /* /sys/devices/system/cpu/smt/control ("on", "off", "notsupported", ...; "") */
	int smt_active;    /* smt/active: 1, 0, or -1 when unknown */
	double loadavg1;   /* the 1-minute load average, NaN when unreadable */
};

/* Reads the settings for CPU cpu (its governor); fields the OS does not offer are left empty.
 * root: NULL for "/", or another root (tests). Always 0. */
int topo_system_read(struct topo_system *s, int cpu, const char *root);

#endif
