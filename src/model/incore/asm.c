/* The kernel compiled to assembly with the machine file's compiler, and its innermost loop found
 * in the assembly text with the bytes it moves per pass; see incore.h. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/spawn.h"
#include "common/array.h"
#include "model/incore/incore.h"
#include "model/incore/work.h"

/* Splits flags at spaces into argv (after the fixed words); drops -l… for an -S run. */
static int build_argv(char **argv, int max, char *flags_copy, int for_asm)
{
	int n = 0;
	for (char *tok = strtok(flags_copy, " \t"); tok && n < max - 1; tok = strtok(NULL, " \t")) {
		if (for_asm && tok[0] == '-' && tok[1] == 'l')
			continue;
		argv[n++] = tok;
	}
	argv[n] = NULL;
	return n;
}

int incore_compile(const struct incore_config *cfg, const char *src, const char *dst, int for_asm, struct incore_workdir *w,
		   struct as_error *err)
{
	char flags[sizeof(cfg->flags)];
	snprintf(flags, sizeof(flags), "%s", cfg->flags);
	char *argv[80];
	int n = 0;
	argv[n++] = (char *)cfg->compiler;
	if (for_asm)
		argv[n++] = "-S";
	argv[n++] = "-o";
	argv[n++] = (char *)dst;
	argv[n++] = (char *)src;
	n += build_argv(argv + n, 80 - n - 2, flags, for_asm);
	/* a copy loop must stay a loop, not become a call to memcpy the analysis cannot see into */
	if (strstr(cfg->compiler, "gcc") || !strcmp(cfg->compiler, "cc"))
		argv[n++] = "-fno-tree-loop-distribute-patterns";
	else if (strstr(cfg->compiler, "clang"))
		argv[n++] = "-fno-builtin";
	argv[n] = NULL;
	struct spawn_result r;
	int rc = spawn_run(argv, NULL, w->path[W_ERR], 120, -1, &r, err);
	if (rc)
		return rc == -ENOENT ? as_error_set(err, -ENOENT, "the compiler '%s' is not installed", cfg->compiler) : rc;
	if (!r.exited || r.status != 0) {
		char msg[400];
		spawn_head(w->path[W_ERR], msg, sizeof(msg));
		return as_error_set(err, -EIO, "%s failed on the generated kernel (%s %s): %s", cfg->compiler, cfg->compiler,
				    cfg->flags, msg);
	}
	return 0;
}

struct asm_line {
	const char *s;
	size_t n;
	int is_label, is_instr;
	char label[64];   /* the label defined, or the target of a jump */
	int is_jump;
};

static int reg_bytes(const char *s, size_t n)
{
	int best = 0;
	for (size_t i = 0; i + 4 <= n; i++) {
		if (s[i] != '%')
			continue;
		if (!strncmp(s + i + 1, "zmm", 3))
			best = best > 64 ? best : 64;
		else if (!strncmp(s + i + 1, "ymm", 3))
			best = best > 32 ? best : 32;
		else if (!strncmp(s + i + 1, "xmm", 3))
			best = best > 16 ? best : 16;
	}
	return best;
}

/* Bytes an instruction stores and loads through memory operands "(...)". */
static void mem_bytes(const char *s, size_t n, double *st, double *ld)
{
	*st = *ld = 0;
	const char *open = memchr(s, '(', n);
	if (!open)
		return;
	char mn[32];
	size_t i = 0;
	while (i < n && isspace((unsigned char)s[i]))
		i++;
	size_t j = 0;
	while (i < n && !isspace((unsigned char)s[i]) && j + 1 < sizeof(mn))
		mn[j++] = s[i++];
	mn[j] = 0;
	if (!strncmp(mn, "lea", 3) || !strncmp(mn, "prefetch", 8) || !strncmp(mn, "nop", 3))
		return;
	int bytes = reg_bytes(s, n);
	size_t ml = strlen(mn);
	/* scalar SSE/AVX (…ss/…sd), else the register width; general-purpose: 8 */
	if (ml >= 2 && (!strcmp(mn + ml - 2, "sd") || (ml >= 3 && !strcmp(mn + ml - 3, "sdq"))))
		bytes = 8;
	else if (ml >= 2 && !strcmp(mn + ml - 2, "ss"))
		bytes = 4;
	/* lane inserts and extracts move one lane: vinsertf128, vextracti32x4, vextractf64x4 */
	else if (strstr(mn, "128") || strstr(mn, "32x4") || strstr(mn, "64x2"))
		bytes = 16;
	else if (strstr(mn, "32x8") || strstr(mn, "64x4"))
		bytes = 32;
	if (!bytes)
		bytes = 8;
	/* AT&T: the destination is the last operand */
	const char *close = NULL;
	for (size_t k = n; k-- > 0;)
		if (s[k] == ')') {
			close = s + k;
			break;
		}
	int dest_mem = 1;
	if (close)
		for (const char *p = close + 1; p < s + n; p++)
			if (*p == ',' || *p == '%')
				dest_mem = 0;
	int is_mov = strstr(mn, "mov") != NULL;
	int nmem = 0;
	for (size_t k = 0; k < n; k++)
		nmem += s[k] == '(';
	if (dest_mem) {
		*st = bytes;
		if (!is_mov)
			*ld = bytes; /* read-modify-write */
	} else {
		*ld = bytes * (nmem > 0);
	}
}

static int split_lines(const char *text, struct asm_line **out)
{
	size_t cap = 1024;
	int n = 0;
	struct asm_line *v = malloc(sizeof(*v) * (size_t)cap);
	if (!v)
		return -1;
	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		struct asm_line *nv = array_grow(v, &cap, (size_t)n, sizeof(*v), 1024);
		if (!nv) {
			free(v);
			return -1;
		}
		v = nv;
		struct asm_line *L = &v[n++];
		memset(L, 0, sizeof(*L));
		L->s = p;
		L->n = len;
		size_t i = 0;
		while (i < len && isspace((unsigned char)p[i]))
			i++;
		const char *colon = memchr(p + i, ':', len - i);
		if (i < len && p[i] != '#' && colon && colon > p + i && (size_t)(colon - (p + i)) < sizeof(L->label) &&
		    !memchr(p + i, ' ', (size_t)(colon - (p + i))) && !memchr(p + i, '\t', (size_t)(colon - (p + i)))) {
			L->is_label = 1;
			snprintf(L->label, sizeof(L->label), "%.*s", (int)(colon - (p + i)), p + i);
		} else if (i < len && p[i] != '.' && p[i] != '#') {
			L->is_instr = 1;
			if (p[i] == 'j') {
				/* jcc/jmp LABEL */
				size_t k = i;
				while (k < len && !isspace((unsigned char)p[k]))
					k++;
				while (k < len && isspace((unsigned char)p[k]))
					k++;
				size_t m = k;
				while (m < len && !isspace((unsigned char)p[m]) && p[m] != '#')
					m++;
				if (m > k && m - k < sizeof(L->label) && p[k] != '*') {
					L->is_jump = 1;
					snprintf(L->label, sizeof(L->label), "%.*s", (int)(m - k), p + k);
				}
			}
		}
		p = e ? e + 1 : p + len;
	}
	*out = v;
	return n;
}

int incore_find_loop(const char *asm_text, const char *fn, struct asm_loop *out, struct as_error *err)
{
	memset(out, 0, sizeof(*out));
	struct asm_line *v;
	int n = split_lines(asm_text, &v);
	if (n < 0)
		return as_error_set(err, -ENOMEM, "out of memory");
	/* the function: from its label to the next function's .size or end */
	int from = -1, to = n;
	for (int i = 0; i < n; i++)
		if (v[i].is_label && !strcmp(v[i].label, fn)) {
			from = i;
			break;
		}
	if (from < 0) {
		free(v);
		return as_error_set(err, -EINVAL, "the assembly has no function '%s'", fn);
	}
	for (int i = from + 1; i < n; i++)
		if (v[i].n >= 5 && strstr(v[i].s, ".size") && memmem(v[i].s, v[i].n, fn, strlen(fn))) {
			to = i;
			break;
		}
	/* loops: a jump at j back to a label at l < j */
	int best_l = -1, best_j = -1;
	double best_vec = -1;
	int best_ins = -1;
	for (int j = from; j < to; j++) {
		if (!v[j].is_jump)
			continue;
		int l = -1;
		for (int i = from; i < j; i++)
			if (v[i].is_label && !strcmp(v[i].label, v[j].label))
				l = i;
		if (l < 0)
			continue;
		/* innermost: no other backward jump inside jumps to a label inside */
		int inner = 1;
		for (int x = l + 1; x < j && inner; x++) {
			if (!v[x].is_jump)
				continue;
			for (int y = l; y < x; y++)
				if (v[y].is_label && !strcmp(v[y].label, v[x].label) && y > l)
					inner = 0;
		}
		if (!inner)
			continue;
		double vec = 0;
		int ins = 0;
		for (int x = l; x <= j; x++) {
			if (!v[x].is_instr)
				continue;
			ins++;
			double st, ld;
			mem_bytes(v[x].s, v[x].n, &st, &ld);
			vec += (st + ld) * (reg_bytes(v[x].s, v[x].n) > 16 ? 2 : 1);
		}
		if (vec > best_vec || (vec == best_vec && ins > best_ins)) {
			best_vec = vec;
			best_ins = ins;
			best_l = l;
			best_j = j;
		}
	}
	if (best_l < 0) {
		free(v);
		return as_error_set(err, -EINVAL, "no loop found in '%s' (the compiler may have removed or fully unrolled it)",
				    fn);
	}
	size_t cap = 0;
	for (int x = best_l; x <= best_j; x++)
		cap += v[x].n + 2;
	out->text = malloc(cap + 1);
	if (!out->text) {
		free(v);
		return as_error_set(err, -ENOMEM, "out of memory");
	}
	size_t w = 0;
	snprintf(out->label, sizeof(out->label), "%s", v[best_l].label);
	for (int x = best_l; x <= best_j; x++) {
		if (!v[x].is_instr && !v[x].is_label)
			continue;
		memcpy(out->text + w, v[x].s, v[x].n);
		w += v[x].n;
		out->text[w++] = '\n';
		if (v[x].is_instr) {
			out->ninstr++;
			double st, ld;
			mem_bytes(v[x].s, v[x].n, &st, &ld);
			out->store_bytes += st;
			out->load_bytes += ld;
		}
	}
	out->text[w] = 0;
	free(v);
	return 0;
}

void incore_loop_free(struct asm_loop *l)
{
	free(l->text);
	l->text = NULL;
}

double incore_unroll(const struct kernel *k, const struct asm_loop *l)
{
	/* an access the innermost loop does not move (y[j] in a matrix-vector product) stays in a
	 * register inside that loop: only the moving ones are in the loop's bytes */
	double st = 0, ld = 0;
	for (int pass = 0; pass < 2 && st == 0 && ld == 0; pass++)
		for (int i = 0; i < k->naccesses; i++) {
			int es = k->array[k->acc[i].array].elsize;
			if (pass == 0 && k->nloops > 0 && poly_is_zero(&k->acc[i].idx.coef[k->nloops - 1]))
				continue;
			if (k->acc[i].write)
				st += es;
			else
				ld += es;
		}
	if (st > 0 && l->store_bytes > 0)
		return l->store_bytes / st;
	if (ld > 0 && l->load_bytes > 0)
		return l->load_bytes / ld;
	return 0;
}
