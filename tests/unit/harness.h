/* A small unit-test harness: each tests/unit/u-<module>.c defines test_<module>__<case>()
 * functions and lists them in TESTS(...); each prints "ok - name" or "not ok - name" with the
 * failing check on a '#' line, or "ok - name # skip REASON" when SKIP() said the machine or the
 * library cannot run it; scripts/test.sh counts the three. */
#ifndef ARCHSCOPE_TESTS_HARNESS_H
#define ARCHSCOPE_TESTS_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int harness_failed;
static char harness_skip[256];

/* SKIP("needs NAME (why)", ...): ends the case as skipped; a reason that starts with "needs NAME"
 * names a prerequisite, as `require` does in tests/cli/lib.sh. */
#define SKIP(...)                                                                              \
	do {                                                                                   \
		snprintf(harness_skip, sizeof(harness_skip), __VA_ARGS__);                     \
		return;                                                                        \
	} while (0)

#define CHECK(cond)                                                                            \
	do {                                                                                   \
		if (!(cond)) {                                                                 \
			printf("# %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);       \
			harness_failed = 1;                                                    \
			return;                                                                \
		}                                                                              \
	} while (0)

#define CHECK_NEAR(a, b, tol)                                                                  \
	do {                                                                                   \
		double a_ = (a), b_ = (b);                                                     \
		if (!(fabs(a_ - b_) <= (tol))) {                                               \
			printf("# %s:%d: %s = %g, expected %g +- %g\n", __FILE__, __LINE__, #a, a_, b_, \
			       (double)(tol));                                                 \
			harness_failed = 1;                                                    \
			return;                                                                \
		}                                                                              \
	} while (0)

#define CHECK_STR(a, b)                                                                        \
	do {                                                                                   \
		const char *a_ = (a), *b_ = (b);                                               \
		if (!a_ || strcmp(a_, b_) != 0) {                                              \
			printf("# %s:%d: %s = \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a,  \
			       a_ ? a_ : "(null)", b_);                                        \
			harness_failed = 1;                                                    \
			return;                                                                \
		}                                                                              \
	} while (0)

struct harness_test {
	const char *name;
	void (*fn)(void);
};

#define T(fn) { #fn, fn }
#define TESTS(...)                                                                             \
	int main(void)                                                                         \
	{                                                                                      \
		static const struct harness_test tests[] = { __VA_ARGS__ };                    \
		int failures = 0;                                                              \
		for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {                \
			harness_failed = 0;                                                    \
			harness_skip[0] = 0;                                                   \
			tests[i].fn();                                                         \
			if (harness_skip[0] && !harness_failed)                                \
				printf("ok - %s # skip %s\n", tests[i].name, harness_skip);    \
			else                                                                   \
				printf("%s - %s\n", harness_failed ? "not ok" : "ok", tests[i].name); \
			fflush(stdout);                                                        \
			failures += harness_failed;                                            \
		}                                                                              \
		return failures ? 1 : 0;                                                       \
	}

#endif
