/* Reading what the preload library wrote (preload/record.h): one process's threads, its wait call
 * sites and its executable mappings; and turning call sites into file:line through libdw. */
#ifndef ARCHSCOPE_SCALE_RECORD_H
#define ARCHSCOPE_SCALE_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "scale/stack.h"

struct scale_site {
	int prim;             /* enum scale_prim; PRIM_COUNT: spinning in user code (spin.h) */
	int proc;             /* its process (index in scale_record.procs) */
	uint64_t addr;        /* return address in the process */
	double wait_s;
	uint64_t calls;
	char where[1024];     /* "file.c:42 (function)", or "binary+0x1234" without debug information;
	                       * C++ names demangled and whole (scale_where_short cuts for display) */
};

struct scale_map {
	uint64_t start, end, offset;
	char path[256];
};

/* One process image (a process, or the part of it before an exec). */
struct scale_process {
	int pid, ppid;
	double start_s, end_s;
	int threads_max;
	char comm[32];
	size_t map0, nmaps;   /* its mappings: maps[map0 .. map0 + nmaps) */
};

struct scale_record {
	int pid;               /* the first process (the program archscope started) */
	double start_s, end_s; /* CLOCK_MONOTONIC seconds: first start to last end over the processes */
	int threads_max;       /* most threads alive at once, over all processes */
	int schedstat_ok;      /* every thread's schedstat was read (else no run-queue time) */
	int processes;         /* process images recorded (the program's children too) */
	struct scale_process *procs;
	size_t nprocs;
	struct scale_thread *th;
	size_t nth;
	struct scale_site *sites; /* merged over threads, by wait time, longest first */
	size_t nsites;
	struct scale_map *maps;
	size_t nmaps;
	/* entries each array has room for (array_grow's; 0: no more than its n) */
	size_t procs_cap, th_cap, sites_cap, maps_cap;
};

/* Reads one record file (one process image). Returns 0, -ENOENT, or -EINVAL for a malformed file
 * (err names it). */
int scale_record_read(const char *path, struct scale_record *r, struct as_error *err);
/* Appends src's processes, threads, sites and mappings to dst (merged by time: dst's span and
 * threads_max cover both) and releases src. -ENOMEM (src released all the same). */
int scale_record_merge(struct scale_record *dst, struct scale_record *src);
/* Reads every record in dir (every process image of the program's tree) into one. A record that
 * cannot be read (malformed, empty) or was never finished (tmp.*: its process was killed while
 * writing it) is skipped and counted in *unreadable (may be NULL): one lost process image does not
 * lose the others. -ENOENT when there is no readable one (a static binary, a program killed
 * before it could write one), -ENOMEM. */
int scale_record_load_dir(const char *dir, struct scale_record *r, int *unreadable, struct as_error *err);
/* The process of r that pid was at time_s (an exec starts a new image with the same pid), or -1. */
int scale_record_proc_of(const struct scale_record *r, int pid, double time_s);
void scale_record_release(struct scale_record *r);
/* Sorts the sites by wait time, longest first. */
void scale_record_sites_sort(struct scale_record *r);

/* Fills where[] of the first `top` sites from their process's mappings and the binaries' debug
 * information (libdw: the address ranges table, else the compile units' own ranges, which clang
 * and split DWARF leave without .debug_aranges); sites without it get "binary+0xOFFSET". Sites of
 * different processes at the same place are then merged and the list sorted again. */
void scale_record_sites_resolve(struct scale_record *r, size_t top);
/* "file.c:42 (function)" for address addr of a mapping of `path` that starts at map_start with
 * file offset map_offset; 0, or -1 when the binary has no symbol for it. */
int scale_addr_lookup(const char *path, uint64_t map_start, uint64_t map_offset, uint64_t addr, char *out, size_t len);
/* where, cut to at most max characters for a person's eyes ("head...)"): the JSON keeps the
 * whole name, the text output shows this. */
void scale_where_short(const char *where, char *out, size_t len, size_t max);

#endif
