/* The loop's longest recurrence through its registers, with llvm-mca's latencies and with the ones
 * `probe instr` measured; see incore.h. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/incore/incore.h"

#define CHAIN_MAX_OPND 6
#define CHAIN_REGS 64

struct chain_instr {
	char mnem[24];
	int nopnd;
	char opnd[CHAIN_MAX_OPND][40];
};

static void chain_split(const char *text, struct chain_instr *ci)
{
	memset(ci, 0, sizeof(*ci));
	while (*text == ' ')
		text++;
	size_t n = strcspn(text, " ");
	snprintf(ci->mnem, sizeof(ci->mnem), "%.*s", (int)(n < sizeof(ci->mnem) ? n : sizeof(ci->mnem) - 1), text);
	const char *p = text + n;
	while (*p && ci->nopnd < CHAIN_MAX_OPND) {
		while (*p == ' ' || *p == ',')
			p++;
		if (!*p)
			break;
		int depth = 0;
		size_t w = 0;
		char *o = ci->opnd[ci->nopnd++];
		for (; *p && (depth > 0 || *p != ','); p++) {
			depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
			if (w + 1 < sizeof(ci->opnd[0]) && *p != ' ')
				o[w++] = *p;
		}
		o[w] = 0;
	}
}

/* One number per architectural register: %xmm3/%ymm3/%zmm3 are one, %rax/%eax/%ax/%al are one. */
static int chain_reg(const char *s, int *bits)
{
	if (*s != '%')
		return -1;
	s++;
	*bits = 64;
	if ((s[0] == 'x' || s[0] == 'y' || s[0] == 'z') && !strncmp(s + 1, "mm", 2) && isdigit((unsigned char)s[3])) {
		*bits = s[0] == 'x' ? 128 : s[0] == 'y' ? 256 : 512;
		return 32 + atoi(s + 3) % 32;
	}
	if (s[0] == 'k' && isdigit((unsigned char)s[1]))
		return 16 + atoi(s + 1) % 8;
	if (s[0] == 'r' && isdigit((unsigned char)s[1]))
		return atoi(s + 1) % 16;
	static const char *const gpr[] = { "ax", "cx", "dx", "bx", "sp", "bp", "si", "di" };
	const char *b = s[0] == 'r' || s[0] == 'e' ? s + 1 : s;
	for (int i = 0; i < 8; i++)
		if (!strncmp(b, gpr[i], 2) || (b[0] == gpr[i][0] && (b[1] == 'l' || b[1] == 'h') && gpr[i][1] == 'x'))
			return i;
	return -1;
}

/* add/sub/mul/div/fma of a scalar or packed float or double, or an integer add/sub/imul: the
 * probed entry, else -1 */
static double chain_probed(const struct chain_instr *ci, int dst_bits, const struct incore_op *ops, int nops)
{
	const char *m = ci->mnem[0] == 'v' ? ci->mnem + 1 : ci->mnem;
	char op[8] = "", type[8] = "";
	int width = 0;
	size_t n = strlen(m);
	if (!strncmp(m, "fmadd", 5) || !strncmp(m, "fmsub", 5) || !strncmp(m, "fnmadd", 6) || !strncmp(m, "fnmsub", 6))
		snprintf(op, sizeof(op), "fma");
	else if (n == 5 && (!strncmp(m, "add", 3) || !strncmp(m, "sub", 3) || !strncmp(m, "mul", 3) || !strncmp(m, "div", 3)))
		snprintf(op, sizeof(op), "%.3s", m);
	if (op[0] && n >= 2 && (m[n - 2] == 's' || m[n - 2] == 'p') && (m[n - 1] == 's' || m[n - 1] == 'd')) {
		int dbl = m[n - 1] == 'd';
		snprintf(type, sizeof(type), "%s", dbl ? "double" : "float");
		width = m[n - 2] == 's' ? (dbl ? 64 : 32) : dst_bits;
	} else if (ci->mnem[0] != 'v' &&
		   ((n == 4 && (!strncmp(m, "add", 3) || !strncmp(m, "sub", 3))) || (n == 5 && !strncmp(m, "imul", 4))) &&
		   (m[n - 1] == 'l' || m[n - 1] == 'q')) {
		snprintf(op, sizeof(op), "%s", m[0] == 'i' ? "mul" : m[0] == 'a' ? "add" : "sub");
		snprintf(type, sizeof(type), "%s", m[n - 1] == 'q' ? "int64" : "int32");
		width = m[n - 1] == 'q' ? 64 : 32;
	} else {
		return -1;
	}
	for (int i = 0; i < nops; i++)
		if (!strcmp(ops[i].op, op) && !strcmp(ops[i].type, type) && ops[i].width_bits == width && ops[i].latency_cy > 0)
			return ops[i].latency_cy;
	return -1;
}

static int chain_is_pure_move(const char *m)
{
	const char *b = m[0] == 'v' ? m + 1 : m;
	return !strncmp(b, "mov", 3) || !strncmp(b, "broadcast", 9) || !strncmp(b, "lea", 3);
}

/* growth per pass of the latest result, registers carried from pass to pass */
static double chain_run(const struct incore_mca *m, const struct chain_instr *ci, const double *lat_reg,
			const double *lat_mem)
{
	double ready[CHAIN_REGS] = { 0 }, half = 0, last = 0;
	enum { PASSES = 64 };
	for (int pass = 0; pass < PASSES; pass++) {
		for (int i = 0; i < m->ninstr; i++) {
			const struct chain_instr *c = &ci[i];
			if (c->nopnd == 0 || c->mnem[0] == 'j' || !strncmp(c->mnem, "cmp", 3) || !strncmp(c->mnem, "test", 4))
				continue;
			int bits, dst = chain_reg(c->opnd[c->nopnd - 1], &bits);
			if (dst < 0)
				continue; /* a store or a flag-only instruction: nothing carried in a register */
			const char *mn = c->mnem[0] == 'v' ? c->mnem + 1 : c->mnem;
			/* zero idioms read nothing */
			if ((!strncmp(mn, "xor", 3) || !strncmp(mn, "pxor", 4) || !strncmp(mn, "sub", 3)) && c->nopnd >= 2 &&
			    !strcmp(c->opnd[0], c->opnd[1]) && (c->nopnd == 2 || !strcmp(c->opnd[1], c->opnd[2]))) {
				ready[dst] = 0;
				continue;
			}
			/* the destination is read too by two-operand legacy forms (addsd %xmm1, %xmm0) and FMA */
			int reads_dst = (c->mnem[0] != 'v' && c->nopnd == 2 && !chain_is_pure_move(c->mnem)) ||
					!strncmp(mn, "fm", 2) || !strncmp(mn, "fnm", 3);
			double t = 0;
			for (int o = 0; o < c->nopnd - (reads_dst ? 0 : 1); o++) {
				const char *s = c->opnd[o];
				int b, r = chain_reg(s, &b);
				if (r >= 0) {
					t = fmax(t, ready[r] + lat_reg[i]);
				} else if (strchr(s, '(')) {
					/* address registers: the load's full latency */
					for (const char *q = strchr(s, '('); q && *q; q++)
						if (*q == '%') {
							int rr = chain_reg(q, &b);
							if (rr >= 0)
								t = fmax(t, ready[rr] + lat_mem[i]);
						}
				}
			}
			if (t == 0)
				t = lat_mem[i]; /* operands that are only constants or memory with a fixed address */
			ready[dst] = t;
		}
		double mx = 0;
		for (int r = 0; r < CHAIN_REGS; r++)
			mx = fmax(mx, ready[r]);
		if (pass == PASSES / 2 - 1)
			half = mx;
		last = mx;
	}
	return (last - half) / (PASSES / 2);
}

void incore_chain(const struct incore_mca *m, const struct incore_op *ops, int nops, struct incore_chain *out)
{
	memset(out, 0, sizeof(*out));
	if (m->ninstr <= 0)
		return;
	struct chain_instr *ci = calloc((size_t)m->ninstr, sizeof(*ci));
	double *lat = calloc((size_t)m->ninstr * 3, sizeof(double));
	if (!ci || !lat) {
		free(ci);
		free(lat);
		return;
	}
	double *reg_mca = lat, *reg_probed = lat + m->ninstr, *mem = lat + 2 * m->ninstr;
	double load_lat[3] = { 0, 0, 0 }; /* llvm-mca's plain loads into xmm (and scalars), ymm, zmm */
	for (int i = 0; i < m->ninstr; i++) {
		chain_split(m->instr[i], &ci[i]);
		int bits;
		if (m->may_load[i] && ci[i].nopnd == 2 && chain_is_pure_move(ci[i].mnem) && strchr(ci[i].opnd[0], '(') &&
		    chain_reg(ci[i].opnd[1], &bits) >= 0) {
			int k = bits == 512 ? 2 : bits == 256 ? 1 : 0;
			load_lat[k] = fmax(load_lat[k], m->latency[i]);
		}
	}
	for (int i = 0; i < m->ninstr; i++) {
		int bits = 64;
		if (ci[i].nopnd > 0)
			chain_reg(ci[i].opnd[ci[i].nopnd - 1], &bits);
		int k = bits == 512 ? 2 : bits == 256 ? 1 : 0;
		double l = m->latency[i] > 0 ? m->latency[i] : 1;
		mem[i] = l;
		reg_mca[i] = l;
		if (m->may_load[i] && !chain_is_pure_move(ci[i].mnem))
			reg_mca[i] = fmax(1, l - (load_lat[k] > 0 ? load_lat[k] : 5));
		double p = chain_probed(&ci[i], bits, ops, nops);
		reg_probed[i] = p > 0 ? p : reg_mca[i];
		out->nprobed += p > 0;
	}
	out->mca_cy_per_pass = chain_run(m, ci, reg_mca, mem);
	/* the memory path of a probed instruction: the load as llvm-mca has it, then the probed latency */
	for (int i = 0; i < m->ninstr; i++)
		mem[i] += reg_probed[i] - reg_mca[i];
	out->probed_cy_per_pass = chain_run(m, ci, reg_probed, mem);
	free(ci);
	free(lat);
}
