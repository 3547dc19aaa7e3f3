/* Line-crossing accesses of the innermost loop: see incore.h. A vector loop over a row that does
 * not start on the vector width makes one of every 64/width accesses of that stream span two cache
 * lines, i.e. one access per cache line of work; a stencil's a[i-1] and a[i+1] are such streams on
 * every row, and a row length that is not a multiple of 8 doubles moves every stream off and on
 * the width from row to row. */
#include <stdint.h>
#include <string.h>

#include "model/incore/incore.h"

/* the outer iterations sampled: the first OUTER_SAMPLE values of each outer loop (the alignment of
 * a row repeats with a period that divides 64 / element size <= 16), at most SAMPLE_CAP tuples */
#define OUTER_SAMPLE 64
#define SAMPLE_CAP 65536

static int same_access(const struct kbound *b, int nl, int x, int y, const struct kernel *k)
{
	if (k->acc[x].array != k->acc[y].array || k->acc[x].write != k->acc[y].write || b->off[x] != b->off[y])
		return 0;
	for (int l = 0; l < nl; l++)
		if (b->coef[x][l] != b->coef[y][l])
			return 0;
	return 1;
}

void incore_split_count(const struct kernel *k, const struct kbound *b, int vector_bytes, double *loads,
			double *stores)
{
	*loads = *stores = 0;
	int nl = b->nloops;
	if (vector_bytes <= 0 || nl <= 0 || 64 % vector_bytes)
		return;
	int in = nl - 1;
	int64_t n[KERNEL_MAX_LOOPS], total = 1;
	for (int l = 0; l < in; l++) {
		n[l] = b->trips[l] < OUTER_SAMPLE ? b->trips[l] : OUTER_SAMPLE;
		if (n[l] <= 0)
			return;
		if (total * n[l] > SAMPLE_CAP)
			n[l] = SAMPLE_CAP / total > 0 ? SAMPLE_CAP / total : 1;
		total *= n[l];
	}
	for (int a = 0; a < b->naccesses && a < k->naccesses; a++) {
		int arr = k->acc[a].array;
		int64_t es = k->array[arr].elsize;
		if (es <= 0 || b->coef[a][in] != 1 || vector_bytes % es)
			continue; /* not a unit-stride stream of the vector loop */
		int dup = 0;
		for (int x = 0; x < a && !dup; x++)
			dup = same_access(b, nl, x, a, k);
		if (dup)
			continue;
		int64_t off_start = b->off[a] + b->coef[a][in] * b->start[in];
		int64_t misaligned = 0;
		int64_t idx[KERNEL_MAX_LOOPS] = { 0 };
		for (int64_t s = 0; s < total; s++) {
			int64_t e = off_start;
			for (int l = 0; l < in; l++)
				e += b->coef[a][l] * (b->start[l] + idx[l] * b->step[l]);
			int64_t byte = e * es;
			misaligned += ((byte % vector_bytes) + vector_bytes) % vector_bytes != 0;
			for (int l = in - 1; l >= 0; l--) { /* the next tuple, innermost outer loop fastest */
				if (++idx[l] < n[l])
					break;
				idx[l] = 0;
			}
		}
		double share = (double)misaligned / (double)total;
		if (k->acc[a].write)
			*stores += share;
		else
			*loads += share;
	}
}

int incore_loop_vector_bytes(const struct asm_loop *l)
{
	int best = 0;
	for (const char *p = l->text; p && *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		/* a memory operand: "(" in an instruction line that names a vector register */
		const char *q = p;
		while (q < p + len && (*q == ' ' || *q == '\t'))
			q++;
		size_t m = strcspn(q, " \t\n");
		char mn[32] = "";
		snprintf(mn, sizeof(mn), "%.*s", (int)(m < sizeof(mn) - 1 ? m : sizeof(mn) - 1), q);
		/* what the memory operand moves: a lane insert or extract moves 16 B (32 B for the
		 * 64x4/32x8 forms) whatever its register; a broadcast reads one element */
		int fixed = strstr(mn, "insert") || strstr(mn, "extract") ? (strstr(mn, "x4") || strstr(mn, "x8") ? 32 : 16) : -1;
		if (strstr(mn, "broadcast") || (m > 0 && mn[0] == '.'))
			fixed = 0;
		if (memchr(p, '(', len) && fixed >= 0) {
			if (fixed > best)
				best = fixed;
		} else if (memchr(p, '(', len)) {
			for (size_t i = 0; i + 3 < len; i++) {
				int w = !strncmp(p + i, "zmm", 3) ? 64 : !strncmp(p + i, "ymm", 3) ? 32 : !strncmp(p + i, "xmm", 3) ? 16 : 0;
				/* a scalar sd/ss operation on an xmm register reads 8 or 4 bytes, not a vector */
				if (w == 16 && m >= 2 && (!strncmp(q + m - 2, "sd", 2) || !strncmp(q + m - 2, "ss", 2)))
					w = 0;
				if (w > best)
					best = w;
			}
		}
		p = eol ? eol + 1 : NULL;
	}
	return best;
}
