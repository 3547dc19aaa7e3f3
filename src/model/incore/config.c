/* The in-core settings of a machine file: compiler and flags, llvm-mca's -mcpu, the port lists,
 * the probed latencies; see incore.h. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/number.h"
#include "common/spawn.h"
#include "machine/probes.h"
#include "model/incore/incore.h"

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

/* The latencies and the line-crossing costs `probe instr` measured (files from probe -o), where
 * they are positive and finite. */
static void probed_read(const struct mtree *mt, struct incore_config *cfg)
{
	struct machine_probes *p = malloc(sizeof(*p));
	if (!p || machine_probes_read(mt, p, NULL) <= 0) {
		free(p);
		return;
	}
	for (int i = 0; i < p->nops && cfg->nops < INCORE_MAX_OPS; i++) {
		const struct machine_probes_op *o = &p->op[i];
		if (!(o->latency_cy > 0) || !isfinite(o->latency_cy) || o->width_bits <= 0 || !o->op[0] || !o->type[0])
			continue;
		struct incore_op *d = &cfg->op[cfg->nops++];
		snprintf(d->op, sizeof(d->op), "%s", o->op);
		snprintf(d->type, sizeof(d->type), "%s", o->type);
		d->width_bits = o->width_bits;
		d->latency_cy = o->latency_cy;
	}
	for (int i = 0; i < p->nsplit && cfg->nsplit < 3; i++) {
		const struct machine_probes_split *w = &p->split[i];
		const double v[] = { w->width_bits, w->load_cy, w->load_split_cy, w->store_cy, w->store_split_cy };
		int ok = 1;
		for (int k = 0; k < 5; k++)
			ok &= v[k] > 0 && isfinite(v[k]);
		if (!ok)
			continue;
		cfg->split[cfg->nsplit++] = (struct incore_split){ w->width_bits, w->load_cy, w->load_split_cy, w->store_cy,
								   w->store_split_cy,
								   w->mixed_cy > 0 && isfinite(w->mixed_cy) ? w->mixed_cy : 0 };
	}
	machine_probes_release(p);
	free(p);
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
	probed_read(mt, cfg);
}
