/* Wait call sites as file:line: the return address the preload library saw, placed in its
 * binary through its process's recorded mappings and looked up in the debug information with
 * libdw: the address ranges table (.debug_aranges) where there is one, else each compile unit's
 * own ranges (clang emits no .debug_aranges; split DWARF keeps the ranges and the line table in
 * the skeleton unit of the executable). */
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <libiberty/demangle.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale/record.h"

static const struct scale_map *map_of(const struct scale_record *r, const struct scale_site *s)
{
	size_t lo = 0, hi = r->nmaps;
	if (s->proc >= 0 && (size_t)s->proc < r->nprocs) {
		lo = r->procs[s->proc].map0;
		hi = lo + r->procs[s->proc].nmaps;
	}
	for (size_t k = lo; k < hi && k < r->nmaps; k++)
		if (s->addr >= r->maps[k].start && s->addr < r->maps[k].end)
			return &r->maps[k];
	return NULL;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* The line of pc (an address of the module) from its compile units: the one whose ranges hold
 * it (dwarf_haspc reads DW_AT_low_pc/high_pc or DW_AT_ranges, no .debug_aranges needed). */
static Dwarf_Line *line_from_cus(Dwfl_Module *mod, Dwarf_Addr pc)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = NULL;
	while ((cu = dwfl_module_nextcu(mod, cu, &bias)) != NULL)
		if (dwarf_haspc(cu, pc - bias) == 1)
			return dwarf_getsrc_die(cu, pc - bias);
	return NULL;
}

int scale_addr_lookup(const char *path, uint64_t map_start, uint64_t map_offset, uint64_t addr, char *out, size_t len)
{
	static const Dwfl_Callbacks cb = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address,
	};
	Dwfl *dwfl = dwfl_begin(&cb);
	if (!dwfl)
		return -1;
	int rc = -1;
	/* The load bias of a position-independent binary: where offset 0 of the file landed
	 * (text segments keep p_vaddr == p_offset). dwfl ignores it for ET_EXEC. */
	Dwfl_Module *mod = dwfl_report_elf(dwfl, base_name(path), path, -1, map_start - map_offset, false);
	dwfl_report_end(dwfl, NULL, NULL);
	if (mod) {
		/* C++ names demangled whole (libiberty, as binutils does), never cut: where[] holds
		 * the full name and only the text output shortens it (scale_where_short) */
		const char *raw = dwfl_module_addrname(mod, addr);
		char *dem = raw ? cplus_demangle(raw, DMGL_PARAMS | DMGL_ANSI) : NULL;
		const char *fn = dem ? dem : raw;
		int lineno = 0;
		const char *src = NULL;
		Dwfl_Line *line = dwfl_module_getsrc(mod, addr);
		if (line) {
			src = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
		} else {
			Dwarf_Line *dl = line_from_cus(mod, addr);
			src = dl ? dwarf_linesrc(dl, NULL, NULL) : NULL;
			if (!dl || dwarf_lineno(dl, &lineno) != 0)
				src = NULL;
		}
		/* line 0: code of no one line (clang merges identical calls of several branches into
		 * one): the file and function, without a line it does not have */
		if (src && lineno == 0) {
			snprintf(out, len, "%.120s:? (%s)", base_name(src), fn ? fn : "?");
			free(dem);
			dwfl_end(dwfl);
			return 0;
		}
		if (src && lineno > 0) {
			snprintf(out, len, "%.120s:%d (%s)", base_name(src), lineno, fn ? fn : "?");
			rc = 0;
		} else if (fn) {
			snprintf(out, len, "%s (%.100s, no line information)", fn, base_name(path));
			rc = 0;
		}
		free(dem);
	}
	dwfl_end(dwfl);
	return rc;
}

void scale_where_short(const char *where, char *out, size_t len, size_t max)
{
	size_t n = strlen(where);
	if (max >= len)
		max = len - 1;
	if (n <= max || max < 8) {
		snprintf(out, len, "%.*s", (int)max, where);
		return;
	}
	/* keep the head (file:line and the name's start) and the closing ")" of the name */
	const char *close = n > 0 && where[n - 1] == ')' ? ")" : "";
	size_t head = max - 3 - strlen(close);
	snprintf(out, len, "%.*s...%s", (int)head, where, close);
}

static int site_where_cmp(const void *a, const void *b)
{
	const struct scale_site *x = a, *y = b;
	if (x->prim != y->prim)
		return x->prim < y->prim ? -1 : 1;
	return strcmp(x->where, y->where);
}

void scale_record_sites_resolve(struct scale_record *r, size_t top)
{
	if (top > r->nsites)
		top = r->nsites;
	for (size_t k = 0; k < top; k++) {
		struct scale_site *s = &r->sites[k];
		const struct scale_map *m = map_of(r, s);
		if (!m) {
			snprintf(s->where, sizeof(s->where), "0x%llx", (unsigned long long)s->addr);
			continue;
		}
		/* addr - 1: the call, not the instruction after it */
		if (scale_addr_lookup(m->path, m->start, m->offset, s->addr - 1, s->where, sizeof(s->where)) != 0)
			snprintf(s->where, sizeof(s->where), "%.200s+0x%llx", base_name(m->path),
				 (unsigned long long)(s->addr - m->start + m->offset));
	}
	/* the same place in several processes (make's compilers, MPI's ranks): one site */
	if (top < 2)
		return;
	qsort(r->sites, top, sizeof(*r->sites), site_where_cmp);
	size_t out = 0;
	for (size_t k = 0; k < top; k++) {
		if (out > 0 && r->sites[out - 1].prim == r->sites[k].prim &&
		    !strcmp(r->sites[out - 1].where, r->sites[k].where)) {
			r->sites[out - 1].wait_s += r->sites[k].wait_s;
			r->sites[out - 1].calls += r->sites[k].calls;
			continue;
		}
		r->sites[out++] = r->sites[k];
	}
	memmove(r->sites + out, r->sites + top, (r->nsites - top) * sizeof(*r->sites));
	r->nsites -= top - out;
	scale_record_sites_sort(r);
}
