/* The parse cache: a kernel that parsed once is kept as its struct kernel (plain numbers, no
 * pointers) under the hash of its text, so the next run on the same file skips libclang, whose
 * loading alone costs about 15 ms. An entry is valid only for the same archscope binary (its
 * inode, size and modification time are part of the entry) and the same bytes of kernel text;
 * a checksum over the stored struct and range checks on its counts guard against a damaged file.
 * An entry is opened with the checked opener (common/atomicfile.h): one that is no regular file
 * (a FIFO would block a plain fopen for ever), or a link loop, is a miss with a note.
 * The cache lives in $ARCHSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/archscope, else
 * ~/.cache/archscope; ARCHSCOPE_CACHE_DIR=off (or empty) turns it off. */
#include "model/kernel-cache.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/atomicfile.h"

#define CACHE_MAGIC "askernl2" /* 2: the word-wise checksum */
#define FNV_START 0xcbf29ce484222325ull

/* FNV-1a of the kernel text (the entry's name). */
static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

/* The checksum of an entry's stored bytes (about 100 KB): FNV-1a's step over 64-bit words, a
 * bijection of the running value for each word, so one changed word always changes the sum; an
 * eighth of the work of FNV-1a byte by byte. */
static uint64_t entry_sum(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = FNV_START, w;
	size_t i = 0;
	for (; len - i >= 8; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x100000001b3ull;
	}
	for (; i < len; i++)
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
	uint64_t sum;       /* entry_sum() of the stored bytes (all that follows the head) */
};

/* The three parts of a struct kernel as stored: most of its size is the unused accesses. */
#define HEAD_BYTES offsetof(struct kernel, acc)
#define TAIL_START (offsetof(struct kernel, acc) + sizeof(((struct kernel *)0)->acc))
#define TAIL_BYTES (sizeof(struct kernel) - TAIL_START)

/* Once per process: the binary does not change under a running command. */
static uint64_t binary_id(void)
{
	static uint64_t id;
	static int known;
	struct stat st;
	if (known)
		return id;
	known = 1;
	if (stat("/proc/self/exe", &st) != 0)
		return id = 0;
	uint64_t v[4] = { (uint64_t)st.st_ino, (uint64_t)st.st_size, (uint64_t)st.st_mtim.tv_sec,
			  (uint64_t)st.st_mtim.tv_nsec };
	return id = fnv(FNV_START, v, sizeof(v));
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

/* The largest entry: its head and a whole struct kernel (every access stored). */
#define ENTRY_MAX_BYTES (sizeof(struct cache_head) + sizeof(struct kernel))

static size_t entry_bytes(size_t nacc)
{
	return sizeof(struct cache_head) + HEAD_BYTES + nacc * sizeof(((struct kernel *)0)->acc[0]) + TAIL_BYTES;
}

/* No kernel: what a miss leaves (not the whole megabyte zeroed: the caller parses into it). */
static int no_kernel(struct kernel *k)
{
	k->nsyms = k->narrays = k->nloops = k->naccesses = 0;
	k->file[0] = 0;
	return 0;
}

int kernel_cache_decode(struct kernel *k, const void *data, size_t n, const char *text, size_t len)
{
	struct cache_head h;
	if (n < sizeof(h))
		return no_kernel(k);
	memcpy(&h, data, sizeof(h));
	if (memcmp(h.magic, CACHE_MAGIC, 8) || h.binary != binary_id() || h.text_hash != fnv(FNV_START, text, len) ||
	    h.text_len != len || h.size != sizeof(*k) || h.naccesses > KERNEL_MAX_ACCESSES ||
	    n != entry_bytes((size_t)h.naccesses) || entry_sum((const char *)data + sizeof(h), n - sizeof(h)) != h.sum)
		return no_kernel(k);
	size_t nacc = (size_t)h.naccesses;
	const char *p = (const char *)data + sizeof(h);
	memcpy(k, p, HEAD_BYTES);
	p += HEAD_BYTES;
	memcpy(k->acc, p, nacc * sizeof(k->acc[0]));
	p += nacc * sizeof(k->acc[0]);
	memcpy((char *)k + TAIL_START, p, TAIL_BYTES);
	if ((uint64_t)k->naccesses != h.naccesses || !kernel_ok(k))
		return no_kernel(k);
	return 1;
}

void *kernel_cache_encode(const struct kernel *k, const char *text, size_t len, size_t *n)
{
	size_t nacc = k->naccesses >= 0 && k->naccesses <= KERNEL_MAX_ACCESSES ? (size_t)k->naccesses : 0;
	*n = entry_bytes(nacc);
	char *buf = malloc(*n);
	if (!buf)
		return NULL;
	struct cache_head h = { .binary = binary_id(), .text_hash = fnv(FNV_START, text, len), .text_len = len,
				.size = sizeof(*k), .naccesses = nacc };
	memcpy(h.magic, CACHE_MAGIC, 8);
	char *p = buf + sizeof(h);
	memcpy(p, k, HEAD_BYTES);
	memset(p + offsetof(struct kernel, file), 0, sizeof(k->file)); /* the name is the caller's, not the entry's */
	p += HEAD_BYTES;
	memcpy(p, k->acc, nacc * sizeof(k->acc[0]));
	p += nacc * sizeof(k->acc[0]);
	memcpy(p, (const char *)k + TAIL_START, TAIL_BYTES);
	h.sum = entry_sum(buf + sizeof(h), *n - sizeof(h));
	memcpy(buf, &h, sizeof(h));
	return buf;
}

void kernel_cache_frame(void *entry, size_t n, const char *text, size_t len)
{
	struct cache_head h;
	if (n < sizeof(h))
		return;
	memcpy(&h, entry, sizeof(h));
	memcpy(h.magic, CACHE_MAGIC, 8);
	h.binary = binary_id();
	h.text_hash = fnv(FNV_START, text, len);
	h.text_len = len;
	h.size = sizeof(struct kernel);
	size_t acc = sizeof(((struct kernel *)0)->acc[0]);
	if (n >= entry_bytes(0) && (n - entry_bytes(0)) % acc == 0)
		h.naccesses = (n - entry_bytes(0)) / acc;
	if (h.naccesses <= KERNEL_MAX_ACCESSES && n == entry_bytes((size_t)h.naccesses)) /* else refused by its size */
		h.sum = entry_sum((const char *)entry + sizeof(h), n - sizeof(h));
	memcpy(entry, &h, sizeof(h));
}

int kernel_cache_load(struct kernel *k, const char *path, const char *name, const char *text, size_t len,
		      struct as_error *note)
{
	no_kernel(k);
	/* the checked opener: a FIFO, a device or a directory is refused without blocking, a link loop
	 * fails; none of them is an entry the next parse can replace, so it is said */
	struct as_error e = { 0 };
	FILE *f = file_open_input(path, "parse-cache entry", &e);
	if (!f) {
		struct stat st;
		if (e.code == -ENOENT)
			;
		else if (e.code == -EINVAL && stat(path, &st) == 0)
			as_error_set(note, -EINVAL, "parse-cache entry '%s' is %s: not used, the kernel was parsed (remove it, "
				     "or ARCHSCOPE_CACHE_DIR=off turns the cache off)", path, file_kind(st.st_mode));
		else
			as_error_set(note, e.code, "%s: not used, the kernel was parsed (remove it, or ARCHSCOPE_CACHE_DIR=off "
				     "turns the cache off)", e.msg);
		return 0;
	}
	/* at most the largest entry is read: a longer file is damaged (the parse then replaces it) */
	struct stat st;
	char *buf = NULL;
	size_t n = 0;
	int ok = 0;
	if (fstat(fileno(f), &st) == 0 && (uintmax_t)st.st_size <= ENTRY_MAX_BYTES &&
	    (buf = malloc((size_t)st.st_size + 1)) != NULL) {
		n = fread(buf, 1, (size_t)st.st_size + 1, f);
		if (ferror(f)) {
			char b[96];
			as_error_set(note, -EIO, "cannot read parse-cache entry '%s': %s: not used, the kernel was parsed", path,
				     as_strerror(errno ? errno : EIO, b, sizeof(b)));
		} else {
			ok = kernel_cache_decode(k, buf, n, text, len);
		}
	}
	free(buf);
	fclose(f);
	if (ok)
		snprintf(k->file, sizeof(k->file), "%s", name);
	return ok;
}

int kernel_cache_get(struct kernel *k, const char *name, const char *text, size_t len, struct as_error *note)
{
	char path[4200];
	if (!entry_path(path, sizeof(path), fnv(FNV_START, text, len), len))
		return no_kernel(k);
	return kernel_cache_load(k, path, name, text, len, note);
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
	if (!entry_path(path, sizeof(path), fnv(FNV_START, text, len), len) || mkdir_p(path) != 0)
		return;
	size_t n = 0;
	void *entry = kernel_cache_encode(k, text, len, &n);
	struct as_error err = { 0 };
	if (entry)
		atomic_file_write(path, entry, n, &err); /* best effort: a failed write leaves no entry */
	free(entry);
}
