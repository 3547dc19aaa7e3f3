/* Unit tests of model/mcpu.c: llvm-mca's -mcpu for CPUs the installed LLVM knows, does not know
 * (newer), and models that lack the kernel's vector width. */
#include <stdlib.h>

#include "harness.h"
#include "model/mcpu.h"

static const char *const llvm14[] = { "alderlake", "cascadelake", "cooperlake", "icelake-server", "sapphirerapids",
				       "skylake", "skylake-avx512", "znver1", "znver2", "znver3", "haswell" };
static const char *const llvm19[] = { "alderlake", "cascadelake", "cooperlake", "emeraldrapids", "graniterapids",
				       "icelake-server", "sapphirerapids", "skylake", "skylake-avx512", "znver1",
				       "znver2", "znver3", "znver4", "znver5", "haswell" };
#define N(a) (sizeof(a) / sizeof(a[0]))

static void test_mcpu__exact(void)
{
	struct mcpu_choice c;
	CHECK(mcpu_choose("znver5", llvm19, N(llvm19), 512, &c) == 0);
	CHECK_STR(c.name, "znver5");
	CHECK(c.exact);
	CHECK(mcpu_choose("emeraldrapids", llvm19, N(llvm19), 512, &c) == 0);
	CHECK_STR(c.name, "emeraldrapids");
}

static void test_mcpu__zen5_on_llvm14_never_znver3_for_avx512(void)
{
	/* The bug of issue 24: LLVM 14 has no Zen 5 model and znver3 rejects AVX-512 code. */
	struct mcpu_choice c;
	CHECK(mcpu_choose("znver5", llvm14, N(llvm14), 512, &c) == -1);
	CHECK(c.name[0] == 0);
	CHECK(strstr(c.reason, "512") != NULL);
	/* AVX2 code is fine on znver3 */
	CHECK(mcpu_choose("znver5", llvm14, N(llvm14), 256, &c) == 0);
	CHECK_STR(c.name, "znver3");
	CHECK(!c.exact);
	CHECK(strstr(c.reason, "does not know") != NULL);
}

static void test_mcpu__newer_than_table(void)
{
	/* a CPU newer than any LLVM knows: the vendor's newest model that has the width */
	struct mcpu_choice c;
	CHECK(mcpu_choose("znver6", llvm19, N(llvm19), 512, &c) == 0);
	CHECK_STR(c.name, "znver5");
	CHECK(mcpu_choose("diamondrapids", llvm19, N(llvm19), 512, &c) == 0);
	CHECK_STR(c.name, "graniterapids");
	CHECK(mcpu_choose("emeraldrapids", llvm14, N(llvm14), 512, &c) == 0);
	CHECK_STR(c.name, "sapphirerapids");
	/* an AVX2-only client with AVX-512 code (not made by -march=native there): an older model
	 * that has the width, never one without it */
	CHECK(mcpu_choose("alderlake", llvm19, N(llvm19), 512, &c) == 0);
	CHECK(mcpu_vector_bits(c.name) == 512);
}

static void test_mcpu__gcc_name_for_avx512_code(void)
{
	/* a machine file written from GCC 12's -march=native on a Zen 5 says znver3; its AVX-512
	 * code needs a model with 512-bit vectors: the nearest newer one */
	struct mcpu_choice c;
	CHECK(mcpu_choose("znver3", llvm19, N(llvm19), 512, &c) == 0);
	CHECK_STR(c.name, "znver4");
	CHECK(strstr(c.reason, "lacks") != NULL);
	CHECK(mcpu_choose("znver3", llvm19, N(llvm19), 256, &c) == 0);
	CHECK_STR(c.name, "znver3");
}

static void test_mcpu__parse(void)
{
	const char *help = "Available CPUs for this target:\n\n  alderlake               - Select the alderlake processor.\n"
			   "  znver5                  - Select the znver5 processor.\n\nAvailable features for this target:\n\n"
			   "  avx512f                 - Enable AVX-512 instructions.\n";
	char *names[8];
	size_t n = mcpu_parse_help(help, names, 8);
	CHECK(n == 2);
	CHECK_STR(names[0], "alderlake");
	CHECK_STR(names[1], "znver5");
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	char host[32];
	CHECK(mcpu_parse_host("LLVM (http://llvm.org/):\n  LLVM version 19.1.7\n  Optimized build.\n  Default target: x86_64-pc-linux-gnu\n  Host CPU: znver5\n", host, sizeof(host)) == 0);
	CHECK_STR(host, "znver5");
	CHECK(mcpu_parse_host("nothing", host, sizeof(host)) == -1);
}

TESTS(T(test_mcpu__exact), T(test_mcpu__zen5_on_llvm14_never_znver3_for_avx512), T(test_mcpu__newer_than_table),
      T(test_mcpu__parse), T(test_mcpu__gcc_name_for_avx512_code))
