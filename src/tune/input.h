/* What tune needs from a machine file: the probed register count (live ranges) for the ISA's
 * register file, the L1 size and the line size. */
#ifndef ARCHSCOPE_TUNE_INPUT_H
#define ARCHSCOPE_TUNE_INPUT_H

#include "common/error.h"
#include "machine/machine.h"
#include "machine/mtree.h"
#include "tune/block.h"
#include "tune/isa.h"

/* The largest L1 and line tune plans for (the machine file's checker bounds a first level at 1 GiB). */
#define TUNE_MAX_L1_BYTES (1024.0 * 1048576.0)
#define TUNE_MAX_LINE_BYTES 4096.0

/* Fills tm for `isa` from the file (name for messages): registers from the probe answers
 * (machine/probes.h: MP_REGISTERS_FP for AVX-512's register file, MP_REGISTERS_NARROW_FP for the
 * 16-register ones where the file has it, else MP_REGISTERS_FP), unless
 * registers_override > 0; L1 from the first cache level; the line from its cl_size. *reg_path
 * names where the count came from. -EINVAL naming what is missing or out of bounds (a register
 * count that is no whole number from 1 to 1024, as "32abc"; an L1 over TUNE_MAX_L1_BYTES). */
int tune_input_read(const struct mtree *t, const struct machine *m, const char *name, enum tune_isa isa,
		    int registers_override, struct tune_machine *tm, const char **reg_path, struct as_error *err);

#endif
