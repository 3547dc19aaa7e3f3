/* Wait call sites as file:line: the return address the preload library saw, placed in its
 * binary through the recorded mappings and looked up in the debug information with libdw. */
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <string.h>

#include "scale/record.h"

static const struct scale_map *map_of(const struct scale_record *r, uint64_t addr)
{
	for (size_t k = 0; k < r->nmaps; k++)
		if (addr >= r->maps[k].start && addr < r->maps[k].end)
			return &r->maps[k];
	return NULL;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* "file.c:42 (function)" from the binary's debug information; 0 on success. */
static int lookup(const struct scale_map *m, uint64_t addr, char *out, size_t len)
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
	Dwfl_Module *mod = dwfl_report_elf(dwfl, base_name(m->path), m->path, -1, m->start - m->offset, false);
	dwfl_report_end(dwfl, NULL, NULL);
	if (mod) {
		Dwarf_Addr pc = addr - 1; /* the call, not the instruction after it */
		Dwfl_Line *line = dwfl_module_getsrc(mod, pc);
		const char *fn = dwfl_module_addrname(mod, pc);
		int lineno = 0;
		const char *src = line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
		if (src && lineno > 0) {
			snprintf(out, len, "%.120s:%d (%.100s)", base_name(src), lineno, fn ? fn : "?");
			rc = 0;
		} else if (fn) {
			snprintf(out, len, "%.120s (%.100s, no line information)", fn, base_name(m->path));
			rc = 0;
		}
	}
	dwfl_end(dwfl);
	return rc;
}

void scale_record_sites_resolve(struct scale_record *r, size_t top)
{
	for (size_t k = 0; k < r->nsites && k < top; k++) {
		struct scale_site *s = &r->sites[k];
		const struct scale_map *m = map_of(r, s->addr);
		if (!m) {
			snprintf(s->where, sizeof(s->where), "0x%llx", (unsigned long long)s->addr);
			continue;
		}
		if (lookup(m, s->addr, s->where, sizeof(s->where)) != 0)
			snprintf(s->where, sizeof(s->where), "%.200s+0x%llx", base_name(m->path),
				 (unsigned long long)(s->addr - m->start + m->offset));
	}
}
