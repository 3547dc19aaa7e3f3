/* The in-core settings of a machine file: compiler and flags, llvm-mca's -mcpu, the port lists,
 * the probed latencies; see incore.h. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/spawn.h"
#include "model/incore/incore.h"
#include "machine/mtree.h"

/* The pairs of a mapping or an !!omap list (a sequence of one-key mappings), in order. */
static int omap_pairs(const struct mnode *n, const char **keys, const struct mnode **vals, int max)
{
	int k = 0;
	if (!n)
		return 0;
	if (n->kind == MN_MAP) {
		for (size_t i = 0; i < n->n && k < max; i++, k++) {
			keys[k] = n->keys[i];
			vals[k] = n->vals[i];
		}
	} else if (n->kind == MN_SEQ) {
		for (size_t i = 0; i < n->n && k < max; i++)
			if (n->vals[i]->kind == MN_MAP && n->vals[i]->n >= 1) {
				keys[k] = n->vals[i]->keys[0];
				vals[k++] = n->vals[i]->vals[0];
			}
	}
	return k;
}

static void read_ports(const struct mnode *root, const char *section, char list[][INCORE_PORT_LEN], int *n)
{
	*n = 0;
	const struct mnode *ports = mnode_get(mnode_get(mnode_get(root, section), "ports"), "LLVM-MCA");
	if (!ports || ports->kind != MN_SEQ)
		return;
	for (size_t i = 0; i < ports->n && *n < INCORE_MAX_PORTS; i++)
		if (ports->vals[i]->kind == MN_SCALAR)
			snprintf(list[(*n)++], INCORE_PORT_LEN, "%s", ports->vals[i]->text);
}

void incore_config_read(const struct mtree *mt, const char *want, struct incore_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	const char *keys[16];
	const struct mnode *vals[16];
	int n = omap_pairs(mnode_get(mt->root, "compiler"), keys, vals, 16);
	int pick = -1;
	for (int i = 0; i < n && pick < 0; i++)
		if (want ? !strcmp(keys[i], want) : spawn_have(keys[i]))
			pick = i;
	if (want && pick < 0) {
		snprintf(cfg->compiler, sizeof(cfg->compiler), "%s", want);
		snprintf(cfg->flags, sizeof(cfg->flags), "-O3 -march=native");
	} else if (pick >= 0) {
		snprintf(cfg->compiler, sizeof(cfg->compiler), "%s", keys[pick]);
		snprintf(cfg->flags, sizeof(cfg->flags), "%s", vals[pick]->kind == MN_SCALAR ? vals[pick]->text : "");
	} else {
		snprintf(cfg->compiler, sizeof(cfg->compiler), "cc");
		snprintf(cfg->flags, sizeof(cfg->flags), "-O3 -march=native");
	}
	n = omap_pairs(mnode_get(mt->root, "in-core model"), keys, vals, 16);
	for (int i = 0; i < n; i++)
		if (!strcmp(keys[i], "LLVM-MCA") && vals[i]->kind == MN_SCALAR) {
			const char *v = strstr(vals[i]->text, "-mcpu=");
			snprintf(cfg->mcpu, sizeof(cfg->mcpu), "%s", v ? v + 6 : vals[i]->text);
			cfg->mcpu[strcspn(cfg->mcpu, " \t")] = 0;
		}
	read_ports(mt->root, "overlapping model", cfg->ol, &cfg->n_ol);
	read_ports(mt->root, "non-overlapping model", cfg->nol, &cfg->n_nol);
	/* the latencies `probe instr` measured (files from probe -o) */
	const struct mnode *ops = mnode_get(mnode_get(mnode_get(mnode_get(mt->root, "archscope"), "probes"), "instr"), "ops");
	for (size_t i = 0; ops && ops->kind == MN_SEQ && i < ops->n && cfg->nops < INCORE_MAX_OPS; i++) {
		const struct mnode *e = ops->vals[i], *op = mnode_get(e, "op"), *ty = mnode_get(e, "type"),
				   *w = mnode_get(e, "width_bits"), *l = mnode_get(e, "latency_cy");
		if (!op || !ty || !w || !l || op->kind != MN_SCALAR || ty->kind != MN_SCALAR || w->kind != MN_SCALAR ||
		    l->kind != MN_SCALAR)
			continue;
		struct incore_op *o = &cfg->op[cfg->nops];
		char *end;
		o->latency_cy = strtod(l->text, &end);
		o->width_bits = atoi(w->text);
		if (*end || !(o->latency_cy > 0) || o->width_bits <= 0)
			continue;
		snprintf(o->op, sizeof(o->op), "%s", op->text);
		snprintf(o->type, sizeof(o->type), "%s", ty->text);
		cfg->nops++;
	}
	/* the costs of line-crossing vector accesses `probe instr` measured */
	const struct mnode *sp = mnode_get(mnode_get(mnode_get(mnode_get(mt->root, "archscope"), "probes"), "instr"), "line_split");
	for (size_t i = 0; sp && sp->kind == MN_SEQ && i < sp->n && cfg->nsplit < 3; i++) {
		static const char *const keys_split[5] = { "width_bits", "load_cy", "load_split_cy", "store_cy", "store_split_cy" };
		double v[5];
		int ok = 1;
		for (int k = 0; k < 5 && ok; k++) {
			const struct mnode *x = mnode_get(sp->vals[i], keys_split[k]);
			char *end;
			ok = x && x->kind == MN_SCALAR && (v[k] = strtod(x->text, &end), !*end) && v[k] > 0 && isfinite(v[k]);
		}
		if (!ok)
			continue;
		struct incore_split *c = &cfg->split[cfg->nsplit++];
		c->width_bits = (int)v[0];
		c->load_cy = v[1];
		c->load_split_cy = v[2];
		c->store_cy = v[3];
		c->store_split_cy = v[4];
		const struct mnode *mx = mnode_get(sp->vals[i], "mixed_cy");
		char *end;
		c->mixed_cy = mx && mx->kind == MN_SCALAR ? strtod(mx->text, &end) : 0;
		if (!(c->mixed_cy > 0) || !isfinite(c->mixed_cy) || (mx && *end))
			c->mixed_cy = 0;
	}
}
