/* libFuzzer target for model's parse-cache entries (model/kernel-cache.c). An entry is about 100 KB,
 * most of it zeros (the unused arrays, loops and accesses of a struct kernel), so the input is the
 * entry with its runs of zeros written short: a zero byte and a 16-bit count (little endian) stand
 * for count + 1 zero bytes, every other byte for itself (tests/fuzz/corpus/kcache/ holds three
 * entries model wrote, so written: a few hundred bytes each). The entry is read (1) as it is, (2)
 * behind a valid head (this binary, the text, the access count its size gives, a checksum that
 * matches), so whatever the stored struct kernel holds reaches the checks of its counts and
 * indices, and (3) for one input in 64 (by the input's last byte) from a file, through the checked
 * opener and the size cap (in /dev/shm where there is one: a file system's writes and the fresh
 * pages of each read cost more than all the rest). An entry accepted is then bound to small sizes and run through the layer
 * conditions, the cache simulator and the data-side models, as a cached kernel is by model.
 * Built and run by tests/fuzz/run.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/atomicfile.h"
#include "model/ecm.h"
#include "model/kernel-cache.h"
#include "model/kernel.h"
#include "model/lc.h"
#include "model/roofline.h"
#include "model/sim.h"
#include "fuzz-machine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static const char TEXT[] = "double a[N];\nfor (int i = 0; i < N; ++i)\n  a[i] = a[i] * 2.0;\n";
static char dir[4096], path[4200];

static void cleanup(void)
{
	unlink(path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "%s/archscope-fuzz-kcache.XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : tmp_dir());
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/entry.bin", dir);
	atexit(cleanup);
	return 0;
}

/* What model does with a kernel it read: format its accesses, bind it, run the models. */
static void use(struct kernel *k)
{
	static struct kbound *b;
	static struct lc_analysis *a;
	if (!b && (!(b = calloc(1, sizeof(*b))) || !(a = calloc(1, sizeof(*a)))))
		abort();
	char s[512];
	for (int i = 0; i < k->naccesses; i++)
		kernel_access_format(k, i, s, sizeof(s));
	int64_t v[POLY_MAX_SYMS];
	for (int i = 0; i < POLY_MAX_SYMS; i++)
		v[i] = 5 + 3 * i;
	struct as_error err = { 0 };
	if (kernel_bind(k, v, 64, b, &err) != 0) {
		if (!err.msg[0])
			abort(); /* a failure must say why */
		return;
	}
	struct machine *m = fuzz_machine();
	struct cache_traffic tr;
	struct ecm_data e;
	struct roofline r;
	if (lc_analyse(k, b, 64, a, &err) == 0) {
		lc_predict(a, m, 1, &tr);
		for (int c = 0; c < a->ncond; c++)
			for (int s2 = 0; s2 < k->nsyms; s2++)
				lc_transition(a, c, b, s2, 4096);
		model_ecm_data(m, &tr, NULL, &e, &err);
	}
	struct sim_info si;
	if (b->iterations < 1000000 && sim_predict(k, b, m, 1, 1, 1000, &tr, &si, &err) == 0) {
		model_ecm_data(m, &tr, NULL, &e, &err);
		model_roofline(m, &tr, kernel_flops(k), kernel_elsize(k), 1, &r, &err);
	}
}

/* The entry the input stands for, into buf[cap]: its size. */
#define ENTRY_CAP (sizeof(struct kernel) + 4096) /* a little more than the largest entry */
static size_t expand(const uint8_t *data, size_t size, char *buf)
{
	size_t n = 0;
	for (size_t i = 0; i < size && n < ENTRY_CAP; i++) {
		if (data[i] || i + 2 >= size) {
			buf[n++] = (char)data[i];
			continue;
		}
		size_t run = (size_t)data[i + 1] + ((size_t)data[i + 2] << 8) + 1;
		if (run > ENTRY_CAP - n)
			run = ENTRY_CAP - n;
		memset(buf + n, 0, run);
		n += run;
		i += 2;
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kernel *k;
	static char *entry; /* one buffer for the process */
	if (!k && (!(k = kernel_new()) || !(entry = malloc(ENTRY_CAP))))
		abort();
	size_t len = sizeof(TEXT) - 1;
	if (!size)
		return 0;
	const uint8_t last = data[size - 1];
	size = expand(data, size, entry);
	if (kernel_cache_decode(k, entry, size, TEXT, len))
		use(k);
	kernel_cache_frame(entry, size, TEXT, len);
	if (kernel_cache_decode(k, entry, size, TEXT, len))
		use(k);
	if ((last & 63) == 0) {
		FILE *f = fopen(path, "wb");
		if (!f || fwrite(entry, 1, size, f) != size || fclose(f) != 0)
			abort();
		struct as_error note = { 0 };
		if (kernel_cache_load(k, path, "fuzz.c", TEXT, len, &note))
			use(k);
		else if (note.code) /* a regular file written here: a miss, never a note */
			abort();
	}
	return 0;
}
