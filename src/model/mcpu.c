/* Choosing llvm-mca's -mcpu (mcpu.h). The successions below are each vendor's cores, newest
 * first, with their widest vector registers (LLVM's X86.td feature lists: AVX-512 from
 * skylake-avx512 and znver4 on, AVX/AVX2 from sandybridge and btver2/bdver1 on). */
#include "model/mcpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mcpu_row {
	const char *name;
	int vendor;        /* 0 Intel, 1 AMD */
	int bits;
};

static const struct mcpu_row rows[] = {
	/* Intel, newest first; servers and clients interleaved by generation */
	{ "diamondrapids", 0, 512 }, { "graniterapids-d", 0, 512 }, { "graniterapids", 0, 512 },
	{ "clearwaterforest", 0, 256 }, { "pantherlake", 0, 256 }, { "arrowlake-s", 0, 256 },
	{ "arrowlake", 0, 256 }, { "lunarlake", 0, 256 }, { "emeraldrapids", 0, 512 },
	{ "sierraforest", 0, 256 }, { "grandridge", 0, 256 }, { "meteorlake", 0, 256 },
	{ "raptorlake", 0, 256 }, { "sapphirerapids", 0, 512 }, { "alderlake", 0, 256 },
	{ "rocketlake", 0, 512 }, { "tigerlake", 0, 512 }, { "icelake-server", 0, 512 },
	{ "icelake-client", 0, 512 }, { "cooperlake", 0, 512 }, { "cascadelake", 0, 512 },
	{ "cannonlake", 0, 512 }, { "skylake-avx512", 0, 512 }, { "skylake", 0, 256 },
	{ "broadwell", 0, 256 }, { "haswell", 0, 256 }, { "ivybridge", 0, 256 },
	{ "sandybridge", 0, 256 }, { "westmere", 0, 128 }, { "nehalem", 0, 128 },
	/* AMD */
	{ "znver5", 1, 512 }, { "znver4", 1, 512 }, { "znver3", 1, 256 }, { "znver2", 1, 256 },
	{ "znver1", 1, 256 }, { "bdver4", 1, 256 }, { "bdver2", 1, 256 }, { "btver2", 1, 256 },
	{ "bdver1", 1, 256 }, { "btver1", 1, 128 },
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

static int row_of(const char *name)
{
	for (size_t i = 0; i < NROWS; i++)
		if (strcmp(rows[i].name, name) == 0)
			return (int)i;
	return -1;
}

int mcpu_vector_bits(const char *name)
{
	int r = row_of(name);
	return r < 0 ? 0 : rows[r].bits;
}

static int is_known(const char *name, const char *const *known, size_t nknown)
{
	for (size_t i = 0; i < nknown; i++)
		if (strcmp(known[i], name) == 0)
			return 1;
	return 0;
}

int mcpu_choose(const char *want, const char *const *known, size_t nknown, int vector_bits, struct mcpu_choice *out)
{
	memset(out, 0, sizeof(*out));
	int r = row_of(want);
	int wbits = r >= 0 ? rows[r].bits : 0;
	if (is_known(want, known, nknown) && (wbits == 0 || wbits >= vector_bits)) {
		snprintf(out->name, sizeof(out->name), "%s", want);
		out->exact = 1;
		snprintf(out->reason, sizeof(out->reason), "%s, the CPU itself", want);
		return 0;
	}
	/* The vendor: from the table, or from the name's form (znver*, bdver*, btver* are AMD). */
	int vendor = r >= 0 ? rows[r].vendor : (!strncmp(want, "znver", 5) || !strncmp(want, "bdver", 5) || !strncmp(want, "btver", 5));
	/* Older models of the vendor after want's row, nearest first; for a CPU the table does not
	 * know (newer than it), from the vendor's newest. Then, for a want that lacks the width (a
	 * machine file naming GCC's guess: GCC 12 calls a Zen 5 "znver3"), the newer ones, nearest
	 * first: the code was compiled for a CPU that has the width. */
	for (int pass = 0; pass < 2; pass++) {
		int from = pass == 0 ? (r >= 0 ? r + 1 : 0) : r - 1, step = pass == 0 ? 1 : -1;
		if (pass == 1 && r < 0)
			break;
		for (int i = from; i >= 0 && i < (int)NROWS; i += step) {
			if (rows[i].vendor != vendor || rows[i].bits < vector_bits || !is_known(rows[i].name, known, nknown))
				continue;
			snprintf(out->name, sizeof(out->name), "%s", rows[i].name);
			snprintf(out->reason, sizeof(out->reason),
				 "%s: the installed llvm-mca %s; nearest model with %d-bit vectors: %s", want,
				 is_known(want, known, nknown) ? "model lacks the kernel's vector width" : "does not know it",
				 vector_bits, rows[i].name);
			return 0;
		}
	}
	snprintf(out->reason, sizeof(out->reason), "no llvm-mca model of %s's vendor with %d-bit vectors is installed", want,
		 vector_bits);
	return -1;
}

size_t mcpu_parse_help(const char *text, char **names, size_t max)
{
	size_t n = 0;
	const char *p = strstr(text, "Available CPUs");
	const char *end = strstr(text, "Available features");
	if (!p)
		return 0;
	p = strchr(p, '\n');
	while (p && *p && (!end || p < end) && n < max) {
		p++;
		char name[64];
		if (sscanf(p, " %63s - ", name) == 1 && strstr(p, " - ") && (!end || strstr(p, " - ") < end) &&
		    strchr(p, '\n') > strstr(p, " - ")) {
			names[n] = strdup(name);
			if (names[n])
				n++;
		}
		p = strchr(p, '\n');
	}
	return n;
}

int mcpu_parse_host(const char *text, char *out, size_t len)
{
	const char *p = strstr(text, "Host CPU:");
	if (!p)
		return -1;
	char name[64];
	if (sscanf(p + 9, " %63s", name) != 1)
		return -1;
	snprintf(out, len, "%s", name);
	return 0;
}

void mcpu_native_name(char *out, size_t len)
{
	snprintf(out, len, "native");
	static const char *const cmds[] = { "llc-19 --version 2>/dev/null", "llc --version 2>/dev/null" };
	for (size_t c = 0; c < 2; c++) {
		FILE *p = popen(cmds[c], "r");
		if (!p)
			continue;
		char text[4096];
		size_t n = fread(text, 1, sizeof(text) - 1, p);
		text[n] = 0;
		pclose(p);
		if (mcpu_parse_host(text, out, len) == 0 && strcmp(out, "generic") != 0)
			return;
		snprintf(out, len, "native");
	}
	FILE *p = popen("cc -march=native -Q --help=target 2>/dev/null", "r");
	if (!p)
		return;
	char line[512];
	while (fgets(line, sizeof(line), p)) {
		char key[64], val[128];
		if (sscanf(line, " %63s %127s", key, val) == 2 && !strcmp(key, "-march=")) {
			snprintf(out, len, "%s", val);
			break;
		}
	}
	pclose(p);
}
