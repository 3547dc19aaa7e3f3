/* Published latency and reciprocal throughput of the instructions the generated kernels compile
 * to, per microarchitecture. Sources are named in each table and in docs/archscope-probe.md. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

#include "cli/published.h"

/* Intel Golden Cove / Raptor Cove cores (Alder Lake P-core; Sapphire Rapids and Emerald Rapids
 * Xeon, which add 512-bit units on ports 0+1 and 5). Figures from Agner Fog's instruction tables
 * (Golden Cove section) and the uops.info measurements of the same instructions. Integer divide
 * is the unsigned DIV the kernels use; vector figures are for the 512-bit (zmm) forms. */
static const struct published_op golden_cove[] = {
	{ "add", "int32", 0, "ADD r32, r32", 1, 0.2 },
	{ "sub", "int32", 0, "SUB r32, r32", 1, 0.2 },
	{ "mul", "int32", 0, "IMUL r32, r32", 3, 1 },
	{ "div", "int32", 0, "DIV r32", 12, 6 },
	{ "add", "int64", 0, "ADD r64, r64", 1, 0.2 },
	{ "sub", "int64", 0, "SUB r64, r64", 1, 0.2 },
	{ "mul", "int64", 0, "IMUL r64, r64", 3, 1 },
	{ "div", "int64", 0, "DIV r64", 15, 10 },
	{ "add", "float", 0, "VADDSS", 2, 0.5 },
	{ "sub", "float", 0, "VSUBSS", 2, 0.5 },
	{ "mul", "float", 0, "VMULSS", 4, 0.5 },
	{ "div", "float", 0, "VDIVSS", 11, 3 },
	{ "fma", "float", 0, "VFMADD231SS", 4, 0.5 },
	{ "add", "double", 0, "VADDSD", 2, 0.5 },
	{ "sub", "double", 0, "VSUBSD", 2, 0.5 },
	{ "mul", "double", 0, "VMULSD", 4, 0.5 },
	{ "div", "double", 0, "VDIVSD", 13, 4 },
	{ "fma", "double", 0, "VFMADD231SD", 4, 0.5 },
	{ "add", "int32", 512, "VPADDD zmm", 1, 0.5 },
	{ "sub", "int32", 512, "VPSUBD zmm", 1, 0.5 },
	{ "mul", "int32", 512, "VPMULLD zmm", 10, 1 },
	{ "add", "int64", 512, "VPADDQ zmm", 1, 0.5 },
	{ "sub", "int64", 512, "VPSUBQ zmm", 1, 0.5 },
	{ "mul", "int64", 512, "VPMULLQ zmm", 15, 1.5 },
	{ "add", "float", 512, "VADDPS zmm", 2, 0.5 },
	{ "sub", "float", 512, "VSUBPS zmm", 2, 0.5 },
	{ "mul", "float", 512, "VMULPS zmm", 4, 0.5 },
	{ "div", "float", 512, "VDIVPS zmm", 18, 10 },
	{ "fma", "float", 512, "VFMADD231PS zmm", 4, 0.5 },
	{ "add", "double", 512, "VADDPD zmm", 2, 0.5 },
	{ "sub", "double", 512, "VSUBPD zmm", 2, 0.5 },
	{ "mul", "double", 512, "VMULPD zmm", 4, 0.5 },
	{ "div", "double", 512, "VDIVPD zmm", 23, 16 },
	{ "fma", "double", 512, "VFMADD231PD zmm", 4, 0.5 },
};

int published_cpu_detect(struct published_cpu *pc)
{
	char vendor[64], fam[16], mod[16];
	if (cli_cpuinfo("vendor_id", vendor, sizeof(vendor)) || cli_cpuinfo("cpu family", fam, sizeof(fam)) ||
	    cli_cpuinfo("model", mod, sizeof(mod)))
		return 0;
	int family = atoi(fam), model = atoi(mod);
	if (strcmp(vendor, "GenuineIntel") != 0 || family != 6)
		return 0;
	/* 143 Sapphire Rapids, 207 Emerald Rapids, 151/154 Alder Lake, 183/186/191 Raptor Lake. */
	if (model == 143 || model == 207 || model == 151 || model == 154 || model == 183 || model == 186 || model == 191) {
		pc->name = "Intel Golden Cove / Raptor Cove";
		pc->source = "Agner Fog, Instruction tables (Golden Cove); uops.info (ADL-P)";
		pc->ops = golden_cove;
		pc->nops = (int)(sizeof(golden_cove) / sizeof(golden_cove[0]));
		return 1;
	}
	return 0;
}

const struct published_op *published_lookup(const struct published_cpu *pc, const char *op, const char *type,
					    int vector, int width_bits)
{
	for (int i = 0; i < pc->nops; i++) {
		const struct published_op *p = &pc->ops[i];
		if (!strcmp(p->op, op) && !strcmp(p->type, type) && (vector ? p->vector_bits == width_bits : p->vector_bits == 0))
			return p;
	}
	return NULL;
}
