/* libFuzzer target for the kernel reader: any bytes either fail with a message or give a kernel,
 * which is then bound to small sizes and run through the layer conditions, the cache simulator
 * and the data-side models on a made-up three-level machine. Built and run by tests/fuzz/run.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/kernel.h"
#include "model/lc.h"
#include "model/ecm.h"
#include "model/roofline.h"
#include "model/sim.h"
#include "fuzz-machine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* libclang runs each parse on a new thread with an 8 MB stack (its crash isolation), which under
 * ASan costs the thread's start, its stack's shadow and page faults: a quarter of the target's
 * time. LIBCLANG_NOTHREADS (libclang's own switch) runs the parse on this thread, whose stack is
 * as large, with the same crash recovery; the reader's code and libclang's parse are the same.
 * An environment that sets it already is left alone (libclang looks only at whether it is set). */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("LIBCLANG_NOTHREADS", "1", 0);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* One kernel, bound kernel and analysis for the process, as a command has: the reader,
	 * kernel_bind and lc_analyse zero what they fill. (A fresh 1 MB struct kernel per input cost
	 * its page faults and, under ASan, an mmap and munmap each time.) */
	static struct kernel *k;
	static struct kbound *b;
	static struct lc_analysis *a;
	if (!k && (!(k = kernel_new()) || !(b = calloc(1, sizeof(*b))) || !(a = calloc(1, sizeof(*a)))))
		abort();
	struct as_error err = { 0 };
	if (kernel_parse_buffer(k, "fuzz.c", (const char *)data, size, &err) != 0) {
		if (!err.msg[0])
			abort(); /* a failure must say why */
		return 0;
	}
	int64_t v[POLY_MAX_SYMS];
	for (int i = 0; i < POLY_MAX_SYMS; i++)
		v[i] = 5 + 3 * i;
	memset(&err, 0, sizeof(err));
	if (kernel_bind(k, v, 64, b, &err) == 0) {
		struct machine *m = fuzz_machine();
		struct cache_traffic tr;
		struct ecm_data e;
		struct roofline r;
		if (lc_analyse(k, b, 64, a, &err) == 0) {
			lc_predict(a, m, 1, &tr);
			for (int c = 0; c < a->ncond; c++)
				for (int s = 0; s < k->nsyms; s++)
					lc_transition(a, c, b, s, 4096);
			model_ecm_data(m, &tr, NULL, &e, &err);
		}
		struct sim_info si;
		if (b->iterations < 1000000 && sim_predict(k, b, m, 1, 1, 1000, &tr, &si, &err) == 0) {
			model_ecm_data(m, &tr, NULL, &e, &err);
			model_roofline(m, &tr, kernel_flops(k), kernel_elsize(k), 1, &r, &err);
		}
	} else if (!err.msg[0]) {
		abort();
	}
	return 0;
}
