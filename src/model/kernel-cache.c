/* The parse cache: a kernel that parsed once is kept as its struct kernel (plain numbers, no
 * pointers) under the hash of its text, so the next run on the same file skips libclang, whose
 * loading alone costs about 15 ms. An entry is valid only for the same archscope binary (its
 * inode, size and modification time are part of the entry) and the same bytes of kernel text;
 * a checksum over the stored struct and range checks on its counts guard against a damaged file.
 * The cache lives in $ARCHSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/archscope, else
 * ~/.cache/archscope; ARCHSCOPE_CACHE_DIR=off (or empty) turns it off. */
#include "model/kernel-cache.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/atomicfile.h"

#define CACHE_MAGIC "askernl1"
#define FNV_START 0xcbf29ce484222325ull

static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

struct cache_head {
	char magic[8];
	uint64_t binary;    /* identity of the archscope binary that wrote it */
	uint64_t text_hash; /* FNV-1a of the kernel text */
	uint64_t text_len;
	uint64_t size;      /* sizeof(struct kernel) */
	uint64_t naccesses; /* stored: the struct up to acc[], acc[0..naccesses), the rest after acc[] */
	uint64_t sum;       /* FNV-1a of the stored bytes */
};

/* The three parts of a struct kernel as stored: most of its size is the unused accesses. */
#define HEAD_BYTES offsetof(struct kernel, acc)
#define TAIL_START (offsetof(struct kernel, acc) + sizeof(((struct kernel *)0)->acc))
#define TAIL_BYTES (sizeof(struct kernel) - TAIL_START)

static uint64_t stored_sum(const struct kernel *k, size_t nacc)
{
	uint64_t h = fnv(FNV_START, k, HEAD_BYTES);
	h = fnv(h, k->acc, nacc * sizeof(k->acc[0]));
	return fnv(h, (const char *)k + TAIL_START, TAIL_BYTES);
}


static uint64_t binary_id(void)
{
	struct stat st;
	if (stat("/proc/self/exe", &st) != 0)
		return 0;
	uint64_t v[4] = { (uint64_t)st.st_ino, (uint64_t)st.st_size, (uint64_t)st.st_mtim.tv_sec,
			  (uint64_t)st.st_mtim.tv_nsec };
	return fnv(FNV_START, v, sizeof(v));
}

/* The cache directory into dir (created), or 0 when the cache is off or has no home. */
static int cache_dir(char *dir, size_t len)
{
	const char *env = getenv("ARCHSCOPE_CACHE_DIR");
	int n;
	if (env) {
		if (!*env || !strcmp(env, "off"))
			return 0;
		n = snprintf(dir, len, "%s", env);
	} else if (getenv("XDG_CACHE_HOME") && *getenv("XDG_CACHE_HOME")) {
		n = snprintf(dir, len, "%s/archscope", getenv("XDG_CACHE_HOME"));
	} else if (getenv("HOME") && *getenv("HOME")) {
		n = snprintf(dir, len, "%s/.cache/archscope", getenv("HOME"));
	} else {
		return 0;
	}
	return n > 0 && (size_t)n < len - 64;
}

static int entry_path(char *path, size_t len, uint64_t text_hash, size_t text_len)
{
	char dir[4096];
	if (!cache_dir(dir, sizeof(dir)))
		return 0;
	int n = snprintf(path, len, "%s/kernels/%016llx-%zu.bin", dir, (unsigned long long)text_hash, text_len);
	return n > 0 && (size_t)n < len;
}

static int name_ok(const char *s, size_t cap)
{
	return memchr(s, 0, cap) != NULL;
}

static int poly_ok(const struct poly *p)
{
	return p->n >= 0 && p->n <= POLY_MAX_TERMS;
}

/* Counts and indices within their arrays: what the model code indexes with. */
static int kernel_ok(const struct kernel *k)
{
	if (k->nsyms < 0 || k->nsyms > POLY_MAX_SYMS || k->narrays < 0 || k->narrays > KERNEL_MAX_ARRAYS ||
	    k->nloops < 1 || k->nloops > KERNEL_MAX_LOOPS || k->naccesses < 0 || k->naccesses > KERNEL_MAX_ACCESSES)
		return 0;
	for (int s = 0; s < k->nsyms; s++)
		if (!name_ok(k->sym[s], KERNEL_NAME_LEN))
			return 0;
	for (int a = 0; a < k->narrays; a++) {
		const struct karray *ar = &k->array[a];
		if (!name_ok(ar->name, KERNEL_NAME_LEN) || ar->ndims < 0 || ar->ndims > KERNEL_MAX_DIMS ||
		    (ar->elsize != 4 && ar->elsize != 8))
			return 0;
		for (int d = 0; d < ar->ndims; d++)
			if (!poly_ok(&ar->dim[d]))
				return 0;
	}
	for (int l = 0; l < k->nloops; l++)
		if (!name_ok(k->loop[l].var, KERNEL_NAME_LEN) || k->loop[l].step <= 0 || !poly_ok(&k->loop[l].start) ||
		    !poly_ok(&k->loop[l].end))
			return 0;
	for (int i = 0; i < k->naccesses; i++) {
		const struct kaccess *a = &k->acc[i];
		if (a->array < 0 || a->array >= k->narrays || !poly_ok(&a->idx.c))
			return 0;
		for (int l = 0; l < KERNEL_MAX_LOOPS; l++)
			if (!poly_ok(&a->idx.coef[l]))
				return 0;
	}
	return 1;
}

int kernel_cache_get(struct kernel *k, const char *name, const char *text, size_t len)
{
	char path[4200];
	uint64_t th = fnv(FNV_START, text, len);
	if (!entry_path(path, sizeof(path), th, len))
		return 0;
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	struct cache_head h;
	memset(k, 0, sizeof(*k));
	int ok = fread(&h, sizeof(h), 1, f) == 1 && !memcmp(h.magic, CACHE_MAGIC, 8) && h.binary == binary_id() &&
		 h.text_hash == th && h.text_len == len && h.size == sizeof(*k) && h.naccesses <= KERNEL_MAX_ACCESSES &&
		 fread(k, HEAD_BYTES, 1, f) == 1 &&
		 (h.naccesses == 0 || fread(k->acc, sizeof(k->acc[0]), h.naccesses, f) == h.naccesses) &&
		 fread((char *)k + TAIL_START, TAIL_BYTES, 1, f) == 1 && fgetc(f) == EOF &&
		 stored_sum(k, h.naccesses) == h.sum && (uint64_t)k->naccesses == h.naccesses && kernel_ok(k);
	fclose(f);
	if (!ok) {
		memset(k, 0, sizeof(*k));
		return 0;
	}
	snprintf(k->file, sizeof(k->file), "%s", name);
	return 1;
}

static int mkdir_p(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		int rc = mkdir(path, 0700);
		*p = '/';
		if (rc != 0 && errno != EEXIST)
			return -1;
	}
	return 0;
}

void kernel_cache_put(const struct kernel *k, const char *text, size_t len)
{
	char path[4200];
	uint64_t th = fnv(FNV_START, text, len);
	if (!entry_path(path, sizeof(path), th, len) || mkdir_p(path) != 0)
		return;
	struct kernel *copy = malloc(sizeof(*copy));
	if (!copy)
		return;
	memcpy(copy, k, sizeof(*copy));
	memset(copy->file, 0, sizeof(copy->file)); /* the name is the caller's, not the entry's */
	size_t nacc = (size_t)copy->naccesses;
	struct cache_head h = { .binary = binary_id(), .text_hash = th, .text_len = len, .size = sizeof(*copy),
				.naccesses = nacc };
	memcpy(h.magic, CACHE_MAGIC, 8);
	h.sum = stored_sum(copy, nacc);
	struct atomic_file af;
	struct as_error err = { 0 };
	if (atomic_file_open(&af, path, &err) == 0) {
		if (fwrite(&h, sizeof(h), 1, af.fp) != 1 || fwrite(copy, HEAD_BYTES, 1, af.fp) != 1 ||
		    (nacc && fwrite(copy->acc, sizeof(copy->acc[0]), nacc, af.fp) != nacc) ||
		    fwrite((const char *)copy + TAIL_START, TAIL_BYTES, 1, af.fp) != 1)
			atomic_file_abort(&af);
		else if (atomic_file_commit(&af, &err) != 0)
			atomic_file_abort(&af);
	}
	free(copy);
}
