/* whatif's sites: the profiling run's samples (the preload library's wif.* files: sampled addresses
 * and the process's mappings) placed in their binaries, named as `stack` names call sites
 * (file:line (function) through libdw, no .debug_aranges needed) and grouped into lines or
 * functions; each site picked gets its code as file-offset ranges, which the preload library
 * turns back into addresses in every process that loads the binary. */
#include <dirent.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "scale/preload/record.h"
#include "scale/whatif.h"

struct map_line {
	uint64_t start, end, off;
	char path[512];
};

/* Reads one profile file: its I lines into *v, placed by its own mappings. */
static int samples_file(const char *file, struct whatif_sample **v, size_t *n, size_t *cap, long *total)
{
	FILE *f = fopen(file, "r");
	if (!f)
		return -errno;
	struct map_line *maps = NULL;
	size_t nm = 0, cm = 0, ni = 0, ci = 0;
	struct { uint64_t a; long c; int tid; } *ips = NULL;
	char line[1400];
	int rc = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a, b, off;
		long c;
		int tid = 0;
		char perm[8], path[512];
		if (line[0] == 'I' && sscanf(line, "I %llx %ld %d", &a, &c, &tid) >= 2 && c > 0) {
			void *p = array_grow(ips, &ci, ni, sizeof(*ips), 256);
			if (!p) {
				rc = -ENOMEM;
				break;
			}
			ips = p;
			ips[ni].a = a;
			ips[ni].tid = tid;
			ips[ni++].c = c;
		} else if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %511s", &a, &b, perm, &off, path) == 5 &&
			   perm[2] == 'x' && path[0] == '/') {
			void *p = array_grow(maps, &cm, nm, sizeof(*maps), 32);
			if (!p) {
				rc = -ENOMEM;
				break;
			}
			maps = p;
			maps[nm] = (struct map_line){ a, b, off, "" };
			snprintf(maps[nm++].path, sizeof(maps[0].path), "%s", path);
		}
	}
	fclose(f);
	for (size_t i = 0; i < ni && rc == 0; i++) {
		*total += ips[i].c;
		for (size_t k = 0; k < nm; k++) {
			if (ips[i].a < maps[k].start || ips[i].a >= maps[k].end)
				continue;
			void *p = array_grow(*v, cap, *n, sizeof(**v), 1024);
			if (!p) {
				rc = -ENOMEM;
				break;
			}
			*v = p;
			struct whatif_sample *s = &(*v)[(*n)++];
			memset(s, 0, sizeof(*s));
			snprintf(s->path, sizeof(s->path), "%s", maps[k].path);
			s->off = ips[i].a - maps[k].start + maps[k].off;
			s->map_start = maps[k].start;
			s->map_offset = maps[k].off;
			s->n = ips[i].c;
			s->tid = ips[i].tid;
			break;
		}
	}
	free(maps);
	free(ips);
	return rc;
}

int whatif_samples_load(const char *dir, struct whatif_sample **v, size_t *n, long *total)
{
	*v = NULL;
	*n = 0;
	*total = 0;
	size_t cap = 0;
	DIR *d = opendir(dir);
	if (!d)
		return -errno;
	struct dirent *de;
	int rc = 0, files = 0;
	char path[4096 + 300];
	while ((de = readdir(d)) && rc == 0)
		if (!strncmp(de->d_name, WHATIF_SAMPLES_PREFIX, strlen(WHATIF_SAMPLES_PREFIX))) {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			rc = samples_file(path, v, n, &cap, total);
			files++;
		}
	closedir(d);
	return rc ? rc : files ? 0 : -ENOENT;
}

/* One binary opened for libdw, placed as the first sample of it was. */
struct bin {
	char path[512];
	Dwfl *dwfl;
	Dwfl_Module *mod;
	uint64_t base; /* map_start - map_offset: module address = base + file offset */
};

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

static struct bin *bin_get(struct bin *bins, int *nb, int max, const struct whatif_sample *s)
{
	static const Dwfl_Callbacks cb = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address,
	};
	for (int i = 0; i < *nb; i++)
		if (!strcmp(bins[i].path, s->path))
			return &bins[i];
	if (*nb >= max)
		return NULL;
	struct bin *b = &bins[(*nb)++];
	snprintf(b->path, sizeof(b->path), "%s", s->path);
	b->base = s->map_start - s->map_offset;
	b->dwfl = dwfl_begin(&cb);
	b->mod = b->dwfl ? dwfl_report_elf(b->dwfl, base_name(s->path), s->path, -1, b->base, false) : NULL;
	if (b->dwfl)
		dwfl_report_end(b->dwfl, NULL, NULL);
	return b;
}

/* The source line of module address a: "src" and line (0: none). */
static int line_of(Dwfl_Module *mod, Dwarf_Addr a, const char **src)
{
	int lineno = 0;
	*src = NULL;
	Dwfl_Line *l = dwfl_module_getsrc(mod, a);
	if (l) {
		*src = dwfl_lineinfo(l, NULL, &lineno, NULL, NULL, NULL);
		return *src ? lineno : 0;
	}
	Dwarf_Addr bias;
	Dwarf_Die *cu = NULL;
	while ((cu = dwfl_module_nextcu(mod, cu, &bias)) != NULL)
		if (dwarf_haspc(cu, a - bias) == 1) {
			Dwarf_Line *dl = dwarf_getsrc_die(cu, a - bias);
			if (dl && dwarf_lineno(dl, &lineno) == 0)
				*src = dwarf_linesrc(dl, NULL, NULL);
			return *src ? lineno : 0;
		}
	return 0;
}

/* A sample's key (what groups it) and name; 0, or -1 when it cannot be named as a site. */
static int sample_name(struct bin *b, const struct whatif_sample *s, int by_function, char *key, size_t klen,
		       char *where, size_t wlen)
{
	if (!b || !b->mod)
		return -1;
	Dwarf_Addr a = b->base + s->off;
	const char *fn = dwfl_module_addrname(b->mod, a);
	if (by_function) {
		if (!fn)
			return -1;
		snprintf(key, klen, "%s|%s", s->path, fn);
		snprintf(where, wlen, "%.150s (%.90s)", fn, base_name(s->path));
		return 0;
	}
	const char *src;
	int line = line_of(b->mod, a, &src);
	if (!src || line <= 0)
		return -1;
	snprintf(key, klen, "%s|%s:%d", s->path, src, line);
	snprintf(where, wlen, "%.120s:%d (%.100s)", base_name(src), line, fn ? fn : "?");
	return 0;
}

/* The OpenMP runtimes by their library's name. */
static int is_omp_runtime(const char *path)
{
	const char *b = base_name(path);
	return !strncmp(b, "libgomp.so", 10) || !strncmp(b, "libgomp-", 8) || !strncmp(b, "libomp.so", 9) ||
	       !strncmp(b, "libomp-", 7) || !strncmp(b, "libomp5", 7) || !strncmp(b, "libiomp5", 8);
}

int whatif_is_runtime_wait(const char *path, const char *function)
{
	/* the words of the runtimes' wait functions: libgomp's config/linux/{bar,wait,futex}.h and
	 * team.c; libomp's kmp_barrier.cpp, kmp_wait_release.h, z_Linux_util.cpp */
	static const char *const words[] = { "barrier", "wait", "spin", "yield", "futex", "suspend", "sleep",
					     "_flag", "kmp_flag", "do_spin", "do_wait", "join_barrier", "fork_barrier", NULL };
	if (function && (!strcmp(function, "sched_yield") || !strcmp(function, "__sched_yield")))
		return 1; /* a yield is never work: libomp's waits yield in their loop, as spin-yield polls do */
	if (!path || !is_omp_runtime(path))
		return 0;
	if (!function || !*function)
		return 1;
	for (int i = 0; words[i]; i++)
		if (strstr(function, words[i]))
			return 1;
	return 0;
}

/* Adds a sample in a runtime's wait to waiting[], grouped by function. */
static void waiting_add(struct whatif_waiting *w, int *nw, int max, const char *fn, const char *path, long n)
{
	char where[256];
	snprintf(where, sizeof(where), "%.150s (%.90s)", fn ? fn : "(no symbol)", base_name(path));
	int k = 0;
	while (k < *nw && strcmp(w[k].where, where) != 0)
		k++;
	if (k == *nw) {
		if (*nw >= max)
			return;
		memset(&w[k], 0, sizeof(w[k]));
		snprintf(w[k].where, sizeof(w[k].where), "%s", where);
		(*nw)++;
	}
	w[k].samples += n;
}

static int waiting_cmp(const void *a, const void *b)
{
	const struct whatif_waiting *x = a, *y = b;
	return x->samples != y->samples ? (x->samples > y->samples ? -1 : 1) : strcmp(x->where, y->where);
}

struct group {
	char key[700];
	char where[256];
	long n;
	int first; /* a sample of it */
};

static int group_cmp(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	return x->n != y->n ? (x->n > y->n ? -1 : 1) : strcmp(x->key, y->key);
}

/* Adds [lo, hi) (module addresses) to the site as file offsets, merging with the last range. */
static void range_add(struct whatif_site *st, const struct bin *b, uint64_t lo, uint64_t hi)
{
	lo -= b->base;
	hi -= b->base;
	for (int i = 0; i < st->noffs; i++)
		if (lo <= st->offs[i][1] && hi >= st->offs[i][0]) {
			st->offs[i][0] = lo < st->offs[i][0] ? lo : st->offs[i][0];
			st->offs[i][1] = hi > st->offs[i][1] ? hi : st->offs[i][1];
			return;
		}
	if (st->noffs < WHATIF_RANGES_MAX) {
		st->offs[st->noffs][0] = lo;
		st->offs[st->noffs][1] = hi;
		st->noffs++;
	}
}

#define FUNC_WALK_MAX (256 * 1024) /* bytes of one function walked for a line's addresses */

/* The site's code: the functions of its samples, whole (by function) or where their line is the
 * site's (by line). */
static void site_ranges(struct whatif_site *st, struct bin *b, const struct whatif_sample *v, size_t n,
			const char *const *keys, const char *key, int by_function)
{
	uint64_t walked[64];
	int nw = 0;
	const char *want_src = strrchr(key, '|');
	for (size_t i = 0; i < n; i++) {
		if (strcmp(keys[i] ? keys[i] : "", key) != 0)
			continue;
		Dwarf_Addr a = b->base + v[i].off;
		GElf_Off fo;
		GElf_Sym sym;
		if (!dwfl_module_addrinfo(b->mod, a, &fo, &sym, NULL, NULL, NULL)) {
			range_add(st, b, a, a + 1);
			continue;
		}
		uint64_t lo = a - fo, hi = lo + (sym.st_size ? sym.st_size : 1);
		int seen = 0;
		for (int k = 0; k < nw && !seen; k++)
			seen = walked[k] == lo;
		if (seen)
			continue;
		if (nw < 64)
			walked[nw++] = lo;
		if (by_function) {
			range_add(st, b, lo, hi);
			continue;
		}
		if (hi - lo > FUNC_WALK_MAX)
			hi = lo + FUNC_WALK_MAX;
		uint64_t run = 0;
		for (uint64_t p = lo; p <= hi; p++) {
			const char *src = NULL;
			int line = p < hi ? line_of(b->mod, p, &src) : 0;
			char k2[700];
			int match = 0;
			if (src && line > 0) {
				snprintf(k2, sizeof(k2), "|%s:%d", src, line);
				match = want_src && !strcmp(k2, want_src);
			}
			if (match && !run)
				run = p;
			else if (!match && run) {
				range_add(st, b, run, p);
				run = 0;
			}
		}
	}
}

int whatif_sites_pick(const struct whatif_sample *v, size_t n, long total, int by_function, int max,
		      struct whatif_site *sites, struct whatif_waiting *waiting, int *nwaiting, int *mark)
{
	for (size_t i = 0; mark && i < n; i++)
		mark[i] = WHATIF_MARK_OTHER;
	struct whatif_waiting wbuf[4 * WHATIF_WAITING_MAX]; /* every wait function, then the top kept */
	int nw = 0;
	struct bin bins[32];
	int nb = 0, ns = 0;
	char **keys = calloc(n ? n : 1, sizeof(*keys));
	struct group *g = calloc(n ? n : 1, sizeof(*g));
	size_t ng = 0;
	if (!keys || !g) {
		free(keys);
		free(g);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		if (strstr(v[i].path, SCALE_PRELOAD_NAME))
			continue; /* our own wrappers and handler */
		char key[700], where[256];
		struct bin *b = bin_get(bins, &nb, 32, &v[i]);
		const char *fn = b && b->mod ? dwfl_module_addrname(b->mod, b->base + v[i].off) : NULL;
		if (whatif_is_runtime_wait(v[i].path, fn)) {
			waiting_add(wbuf, &nw, 4 * WHATIF_WAITING_MAX, fn, v[i].path, v[i].n);
			if (mark)
				mark[i] = WHATIF_MARK_WAITING;
			continue;
		}
		if (sample_name(b, &v[i], by_function, key, sizeof(key), where, sizeof(where)) != 0)
			continue;
		keys[i] = strdup(key);
		size_t k = 0;
		while (k < ng && strcmp(g[k].key, key) != 0)
			k++;
		if (k == ng) {
			snprintf(g[ng].key, sizeof(g[ng].key), "%s", key);
			snprintf(g[ng].where, sizeof(g[ng].where), "%s", where);
			g[ng].first = (int)i;
			ng++;
		}
		g[k].n += v[i].n;
	}
	qsort(g, ng, sizeof(*g), group_cmp);
	for (size_t k = 0; k < ng && ns < max; k++) {
		struct whatif_site *st = &sites[ns];
		memset(st, 0, sizeof(*st));
		snprintf(st->where, sizeof(st->where), "%s", g[k].where);
		snprintf(st->path, sizeof(st->path), "%s", v[g[k].first].path);
		st->samples = g[k].n;
		st->share = total > 0 ? (double)g[k].n / (double)total : 0;
		struct bin *b = bin_get(bins, &nb, 32, &v[g[k].first]);
		site_ranges(st, b, v, n, (const char *const *)keys, g[k].key, by_function);
		if (st->noffs == 0)
			continue;
		for (size_t i = 0; mark && i < n; i++)
			if (keys[i] && !strcmp(keys[i], g[k].key))
				mark[i] = ns;
		ns++;
	}
	qsort(wbuf, (size_t)nw, sizeof(*wbuf), waiting_cmp);
	*nwaiting = nw < WHATIF_WAITING_MAX ? nw : WHATIF_WAITING_MAX;
	for (int k = 0; k < *nwaiting; k++) {
		waiting[k] = wbuf[k];
		waiting[k].share = total > 0 ? (double)wbuf[k].samples / (double)total : 0;
	}
	for (int i = 0; i < nb; i++)
		if (bins[i].dwfl)
			dwfl_end(bins[i].dwfl);
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	free(g);
	return ns;
}
