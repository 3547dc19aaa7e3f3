/* Two machine files flattened to key paths and paired; see diff.h. */
#include "machine/diff.h"
#include "common/array.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Flattened leaves: "path" -> text. */
struct leaf {
	char *path, *text;
};
struct leaves {
	struct leaf *v;
	size_t n, cap;
	int oom;
};

static void add_leaf(struct leaves *ls, const char *path, const char *text)
{
	if (ls->oom)
		return;
	struct leaf *v = array_grow(ls->v, &ls->cap, ls->n, sizeof(*v), 64);
	if (!v) {
		ls->oom = 1;
		return;
	}
	ls->v = v;
	struct leaf *l = &ls->v[ls->n];
	l->path = strdup(path);
	l->text = strdup(text);
	ls->n++;
	if (!l->path || !l->text)
		ls->oom = 1;
}

/* Sections that are no core value of a machine: measured curves, counters, port models. */
static int core_key(const char *k)
{
	static const char *const skip[] = { "stats", "performance counter metrics", "performance counter metric",
					    "archscope", "benchmarks", "overlapping model", "non-overlapping model" };
	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strcmp(k, skip[i]))
			return 0;
	return 1;
}

static void flatten(const struct mnode *n, const char *path, struct leaves *ls, int all)
{
	char p[1024];
	if (n->kind == MN_SCALAR) {
		add_leaf(ls, path, n->text);
		return;
	}
	if (n->kind == MN_SEQ) {
		int scalars = 1;
		for (size_t i = 0; i < n->n; i++)
			scalars &= n->vals[i]->kind == MN_SCALAR;
		if (scalars) {
			char buf[4096] = "[";
			for (size_t i = 0; i < n->n; i++)
				snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", i ? ", " : "", n->vals[i]->text);
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "]");
			add_leaf(ls, path, buf);
			return;
		}
		for (size_t i = 0; i < n->n; i++) {
			/* levels by name, so L2 meets L2 even when one file has fewer levels */
			const struct mnode *name = mnode_get(n->vals[i], "level");
			if (name && name->kind == MN_SCALAR)
				snprintf(p, sizeof(p), "%s[%s]", path, name->text);
			else
				snprintf(p, sizeof(p), "%s[%zu]", path, i);
			flatten(n->vals[i], p, ls, all);
		}
		return;
	}
	for (size_t i = 0; i < n->n; i++) {
		if (!all && !core_key(n->keys[i]))
			continue;
		snprintf(p, sizeof(p), "%s%s%s", path, *path ? "." : "", n->keys[i]);
		flatten(n->vals[i], p, ls, all);
	}
}

static const char *find_leaf(const struct leaves *ls, const char *path)
{
	for (size_t i = 0; i < ls->n; i++)
		if (!strcmp(ls->v[i].path, path))
			return ls->v[i].text;
	return NULL;
}

static void free_leaves(struct leaves *ls)
{
	for (size_t i = 0; i < ls->n; i++) {
		free(ls->v[i].path);
		free(ls->v[i].text);
	}
	free(ls->v);
}

static int add_row(struct machine_diff *d, const char *path, const char *a, const char *b)
{
	struct machine_diff_row *r = &d->row[d->n++];
	r->path = strdup(path);
	r->a = a ? strdup(a) : NULL;
	r->b = b ? strdup(b) : NULL;
	r->differs = !a || !b || strcmp(a, b);
	d->ndiffer += r->differs;
	return r->path && (!a || r->a) && (!b || r->b) ? 0 : -1;
}

int machine_diff_init(struct machine_diff *d, const struct mnode *a, const struct mnode *b, int all,
		      struct as_error *err)
{
	*d = (struct machine_diff){ 0 };
	struct leaves la = { 0 }, lb = { 0 };
	flatten(a, "", &la, all);
	flatten(b, "", &lb, all);
	int rc = la.oom || lb.oom ? -1 : 0;
	if (rc == 0 && !(d->row = calloc(la.n + lb.n + 1, sizeof(*d->row))))
		rc = -1;
	for (size_t i = 0; rc == 0 && i < la.n; i++)
		rc = add_row(d, la.v[i].path, la.v[i].text, find_leaf(&lb, la.v[i].path));
	d->na = la.n;
	for (size_t i = 0; rc == 0 && i < lb.n; i++)
		if (!find_leaf(&la, lb.v[i].path))
			rc = add_row(d, lb.v[i].path, NULL, lb.v[i].text);
	free_leaves(&la);
	free_leaves(&lb);
	if (rc != 0) {
		machine_diff_release(d);
		return as_error_set(err, -ENOMEM, "machine diff: out of memory");
	}
	return 0;
}

void machine_diff_release(struct machine_diff *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->row[i].path);
		free(d->row[i].a);
		free(d->row[i].b);
	}
	free(d->row);
	*d = (struct machine_diff){ 0 };
}
