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
	uint64_t addr;        /* return address in the process */
	double wait_s;
	uint64_t calls;
	char where[256];      /* "file.c:42 (function)", or "binary+0x1234" without debug information */
};

struct scale_map {
	uint64_t start, end, offset;
	char path[256];
};

struct scale_record {
	int pid;
	double start_s, end_s; /* CLOCK_MONOTONIC seconds */
	int threads_max;       /* most threads alive at once */
	int schedstat_ok;      /* every thread's schedstat was read (else no run-queue time) */
	int processes;         /* records found in the directory (the program's children too) */
	struct scale_thread *th;
	size_t nth;
	struct scale_site *sites; /* merged over threads, by wait time, longest first */
	size_t nsites;
	struct scale_map *maps;
	size_t nmaps;
};

/* Reads one record file. Returns 0, -ENOENT, or -EINVAL for a malformed file (err names it). */
int scale_record_read(const char *path, struct scale_record *r, struct as_error *err);
/* Reads the records in dir and keeps the program's own process: the one with the most thread
 * time (a shell that started the program has one thread, mostly waiting). -ENOENT when there is
 * none (a static binary, or a program that crashed before exit). */
int scale_record_load_dir(const char *dir, struct scale_record *r, struct as_error *err);
void scale_record_release(struct scale_record *r);
/* Sorts the sites by wait time, longest first. */
void scale_record_sites_sort(struct scale_record *r);

/* Fills where[] of the first `top` sites from the mappings and the binaries' debug information
 * (libdw); sites without it get "binary+0xOFFSET". */
void scale_record_sites_resolve(struct scale_record *r, size_t top);

#endif
