/* Published latency and reciprocal throughput of the instructions the generated kernels compile
 * to, per microarchitecture. Sources are named in each table and in docs/archscope-probe.md. */
#include "probe/published.h"

#include <stdlib.h>
#include <string.h>

#include "topo/cpuinfo.h"

/* Intel Golden Cove / Raptor Cove cores (Alder Lake P-core; Sapphire Rapids and Emerald Rapids
 * Xeon, which add 512-bit units on ports 0+1 and 5). Integer divide is the unsigned DIV the kernels
 * use; vector figures are for the 512-bit (zmm) forms. Three sources, each one a document that can
 * be opened and checked; 0 where a source has no entry for the instruction:
 *   [0] OSACA's Sapphire Rapids machine model, osaca/data/spr.yml in github.com/RRZE-HPC/OSACA
 *       (commit 2d1d8bf38f7dfbc3752ba0f0b75bce67ef7e4889), the entries marked "# ibench", measured
 *       with ibench on a Sapphire Rapids core; "throughput" there is cycles per instruction. No
 *       entries for DIV r32/r64, VPSUBD/Q, VPMULLD/Q;
 *   [1] uops.info's Alder Lake-P measurements, https://uops.info/html-instr/DIV_R32.html and
 *       DIV_R64.html: latency EAX/RAX -> EAX/RAX (the chain the kernels run; EDX/RDX is zeroed
 *       first) and measured throughput. Only these two rows;
 *   [2] LLVM 19's scheduling model of the CPU (X86SchedSapphireRapids.td, contributed by Intel),
 *       as llvm-mca-19 -mcpu=emeraldrapids reports it; bench/published-llvm.sh recomputes the
 *       column and checks every row.
 * An earlier table carried Agner Fog's figures transcribed from memory; they could not be checked
 * here and were removed. */
static const struct published_op golden_cove[] = {
	/* op    type     bits  instruction          latency:    OSACA uops LLVM; cy/op: OSACA uops LLVM */
	{ "add", "int32", 0, "ADD r32, r32", { 1, 0, 1 }, { 0.2, 0, 0.2 } },
	{ "sub", "int32", 0, "SUB r32, r32", { 1, 0, 1 }, { 0.2, 0, 0.2 } },
	{ "mul", "int32", 0, "IMUL r32, r32", { 3, 0, 3 }, { 1, 0, 1 } },
	{ "div", "int32", 0, "DIV r32", { 0, 11, 15 }, { 0, 6, 3 } },
	{ "add", "int64", 0, "ADD r64, r64", { 1, 0, 1 }, { 0.2, 0, 0.2 } },
	{ "sub", "int64", 0, "SUB r64, r64", { 1, 0, 1 }, { 0.2, 0, 0.2 } },
	{ "mul", "int64", 0, "IMUL r64, r64", { 3, 0, 3 }, { 1, 0, 1 } },
	{ "div", "int64", 0, "DIV r64", { 0, 14, 18 }, { 0, 10, 3 } },
	{ "add", "float", 0, "VADDSS", { 2, 0, 3 }, { 0.5, 0, 0.5 } },
	{ "sub", "float", 0, "VSUBSS", { 2, 0, 3 }, { 0.5, 0, 0.5 } },
	{ "mul", "float", 0, "VMULSS", { 4, 0, 4 }, { 0.5, 0, 0.5 } },
	{ "div", "float", 0, "VDIVSS", { 11, 0, 11 }, { 3, 0, 1 } },
	{ "fma", "float", 0, "VFMADD231SS", { 4, 0, 4 }, { 0.5, 0, 0.5 } },
	{ "add", "double", 0, "VADDSD", { 2, 0, 3 }, { 0.5, 0, 0.5 } },
	{ "sub", "double", 0, "VSUBSD", { 2, 0, 3 }, { 0.5, 0, 0.5 } },
	{ "mul", "double", 0, "VMULSD", { 4, 0, 4 }, { 0.5, 0, 0.5 } },
	{ "div", "double", 0, "VDIVSD", { 14, 0, 14 }, { 4, 0, 1 } },
	{ "fma", "double", 0, "VFMADD231SD", { 4, 0, 4 }, { 0.5, 0, 0.5 } },
	{ "add", "int32", 512, "VPADDD zmm", { 1, 0, 1 }, { 0.5, 0, 0.5 } },
	{ "sub", "int32", 512, "VPSUBD zmm", { 0, 0, 1 }, { 0, 0, 0.5 } },
	{ "mul", "int32", 512, "VPMULLD zmm", { 0, 0, 10 }, { 0, 0, 2 } },
	{ "add", "int64", 512, "VPADDQ zmm", { 1, 0, 1 }, { 0.5, 0, 0.5 } },
	{ "sub", "int64", 512, "VPSUBQ zmm", { 0, 0, 1 }, { 0, 0, 0.5 } },
	{ "mul", "int64", 512, "VPMULLQ zmm", { 0, 0, 15 }, { 0, 0, 3 } },
	{ "add", "float", 512, "VADDPS zmm", { 3, 0, 3 }, { 0.5, 0, 0.5 } },
	{ "sub", "float", 512, "VSUBPS zmm", { 3, 0, 3 }, { 0.5, 0, 0.5 } },
	{ "mul", "float", 512, "VMULPS zmm", { 4, 0, 4 }, { 0.5, 0, 1 } },
	{ "div", "float", 512, "VDIVPS zmm", { 18, 0, 17 }, { 10, 0, 2 } },
	{ "fma", "float", 512, "VFMADD231PS zmm", { 4, 0, 4 }, { 0.5, 0, 1 } },
	{ "add", "double", 512, "VADDPD zmm", { 3, 0, 3 }, { 0.5, 0, 0.5 } },
	{ "sub", "double", 512, "VSUBPD zmm", { 3, 0, 3 }, { 0.5, 0, 0.5 } },
	{ "mul", "double", 512, "VMULPD zmm", { 4, 0, 4 }, { 0.5, 0, 1 } },
	{ "div", "double", 512, "VDIVPD zmm", { 23, 0, 23 }, { 16, 0, 2 } },
	{ "fma", "double", 512, "VFMADD231PD zmm", { 4, 0, 4 }, { 0.5, 0, 1 } },
};

int probe_published_for(const char *vendor, int family, int model, struct published_cpu *pc)
{
	memset(pc, 0, sizeof(*pc));
	if (strcmp(vendor, "GenuineIntel") != 0 || family != 6)
		return 0;
	/* 143 Sapphire Rapids, 207 Emerald Rapids, 151/154 Alder Lake, 183/186/191 Raptor Lake. */
	if (model == 143 || model == 207 || model == 151 || model == 154 || model == 183 || model == 186 || model == 191) {
		pc->name = "Intel Golden Cove / Raptor Cove";
		pc->source[0] = "OSACA Sapphire Rapids model, ibench entries (RRZE-HPC/OSACA osaca/data/spr.yml @2d1d8bf)";
		pc->tag[0] = "OSACA";
		pc->source[1] = "uops.info, Alder Lake-P (html-instr/DIV_R32, DIV_R64)";
		pc->tag[1] = "uops";
		/* LLVM's model is of the Xeon cores (Sapphire and Emerald Rapids share it). */
		if (model == 143 || model == 207) {
			pc->source[2] = "LLVM 19 scheduling model (llvm-mca-19 -mcpu=emeraldrapids)";
			pc->tag[2] = "LLVM";
		}
		pc->ops = golden_cove;
		pc->nops = (int)(sizeof(golden_cove) / sizeof(golden_cove[0]));
		return 1;
	}
	return 0;
}

int probe_published_detect(struct published_cpu *pc)
{
	char vendor[64], fam[16], mod[16];
	memset(pc, 0, sizeof(*pc));
	if (topo_cpuinfo("vendor_id", vendor, sizeof(vendor)) || topo_cpuinfo("cpu family", fam, sizeof(fam)) ||
	    topo_cpuinfo("model", mod, sizeof(mod)))
		return 0;
	return probe_published_for(vendor, atoi(fam), atoi(mod), pc);
}

const struct published_op *probe_published_lookup(const struct published_cpu *pc, const char *op, const char *type,
						  int vector, int width_bits)
{
	for (int i = 0; i < pc->nops; i++) {
		const struct published_op *p = &pc->ops[i];
		if (!strcmp(p->op, op) && !strcmp(p->type, type) && (vector ? p->vector_bits == width_bits : p->vector_bits == 0))
			return p;
	}
	return NULL;
}
