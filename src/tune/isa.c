/* The ISA table of the generated micro-kernels and the CPU feature test (isa.h). */
#include "tune/isa.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct tune_isa_info isa_table[TUNE_ISA_COUNT] = {
	[TUNE_ISA_SSE2] = { "sse2", "sse2", "-msse2", "emmintrin.h", "__m128d", "_mm_loadu_pd", "_mm_storeu_pd",
			    "_mm_set1_pd", NULL, "_mm_sub_pd", "_mm_mul_pd", 2, 0 },
	[TUNE_ISA_AVX2] = { "avx2", "avx2 fma", "-mavx2 -mfma", "immintrin.h", "__m256d", "_mm256_loadu_pd",
			    "_mm256_storeu_pd", "_mm256_set1_pd", "_mm256_fnmadd_pd", "_mm256_sub_pd", "_mm256_mul_pd", 4, 0 },
	[TUNE_ISA_AVX512] = { "avx512", "avx512f", "-mavx512f -mfma", "immintrin.h", "__m512d", "_mm512_loadu_pd",
			      "_mm512_storeu_pd", "_mm512_set1_pd", "_mm512_fnmadd_pd", "_mm512_sub_pd", "_mm512_mul_pd", 8, 1 },
};

const struct tune_isa_info *tune_isa_get(enum tune_isa isa)
{
	return isa >= 0 && isa < TUNE_ISA_COUNT ? &isa_table[isa] : NULL;
}

int tune_isa_find(const char *name)
{
	for (int i = 0; i < TUNE_ISA_COUNT; i++)
		if (!strcasecmp(name, isa_table[i].name))
			return i;
	return -1;
}

/* One feature through the compiler's cpuid wrapper (the names it knows are literals). */
static int cpu_has(const char *f)
{
	const char *fake = getenv("ARCHSCOPE_TUNE_CPU_FLAGS");
	if (fake) {
		size_t n = strlen(f);
		for (const char *p = fake; (p = strstr(p, f)) != NULL; p += n)
			if ((p == fake || p[-1] == ' ') && (p[n] == 0 || p[n] == ' '))
				return 1;
		return 0;
	}
#if defined(__x86_64__) || defined(__i386__)
	__builtin_cpu_init();
	if (!strcmp(f, "sse2"))
		return __builtin_cpu_supports("sse2");
	if (!strcmp(f, "avx2"))
		return __builtin_cpu_supports("avx2");
	if (!strcmp(f, "fma"))
		return __builtin_cpu_supports("fma");
	if (!strcmp(f, "avx512f"))
		return __builtin_cpu_supports("avx512f");
#endif
	return 0;
}

int tune_isa_present(enum tune_isa isa)
{
	const struct tune_isa_info *t = tune_isa_get(isa);
	if (!t)
		return 0;
	char buf[64];
	strncpy(buf, t->cpu_flags, sizeof(buf) - 1);
	buf[sizeof(buf) - 1] = 0;
	char *save = NULL;
	for (char *f = strtok_r(buf, " ", &save); f; f = strtok_r(NULL, " ", &save))
		if (!cpu_has(f))
			return 0;
	return 1;
}

int tune_isa_widest(enum tune_isa *out, struct as_error *err)
{
	for (int i = TUNE_ISA_COUNT - 1; i >= 0; i--)
		if (tune_isa_present((enum tune_isa)i)) {
			*out = (enum tune_isa)i;
			return 0;
		}
	return as_error_set(err, -ENOTSUP, "this CPU has none of the ISAs the micro-kernels are written for (sse2, avx2 with fma, avx512f)");
}
