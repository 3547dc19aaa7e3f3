/* Machine-file YAML trees: nodes, parsing with line numbers, lookups; see mtree.h (emission and
 * the JSON conversions are in mtree-emit.c). */
#include "machine/mtree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "common/array.h"
#include "common/atomicfile.h"

#define MTREE_MAX_DEPTH 64
#define MTREE_MAX_BYTES ((size_t)4 << 20)

static char *dupn(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = 0;
	}
	return d;
}

void mnode_free(struct mnode *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->n; i++) {
		if (n->keys)
			free(n->keys[i]);
		mnode_free(n->vals[i]);
	}
	free(n->keys);
	free(n->key_lines);
	free(n->vals);
	free(n->tag);
	free(n->text);
	free(n);
}

void mtree_free(struct mtree *t)
{
	mnode_free(t->root);
	free(t->header);
	t->root = NULL;
	t->header = NULL;
}

int mnode_add(struct mnode *n, char *key, int key_line, struct mnode *v)
{
	/* the arrays grow in step: n->cap is raised once all of them have room */
	size_t cv = n->cap, ck = n->cap, cl = n->cap;
	struct mnode **vals = array_grow(n->vals, &cv, n->n, sizeof(*vals), 4);
	if (!vals)
		return -1;
	n->vals = vals;
	if (n->kind == MN_MAP) {
		char **keys = array_grow(n->keys, &ck, n->n, sizeof(*keys), 4);
		if (!keys)
			return -1;
		n->keys = keys;
		int *kl = array_grow(n->key_lines, &cl, n->n, sizeof(*kl), 4);
		if (!kl)
			return -1;
		n->key_lines = kl;
		keys[n->n] = key;
		kl[n->n] = key_line;
	}
	n->cap = cv;
	vals[n->n++] = v;
	return 0;
}

/* --- parsing ----------------------------------------------------------------------------- */

struct pstate {
	yaml_parser_t p;
	const char *name;
	struct as_error *err;
};

static int perr(struct pstate *s, int line, const char *fmt, const char *arg)
{
	char msg[256];
	snprintf(msg, sizeof(msg), fmt, arg);
	return as_error_set(s->err, -EINVAL, "machine file '%s': line %d: %s", s->name, line, msg);
}

static int next(struct pstate *s, yaml_event_t *ev)
{
	if (!yaml_parser_parse(&s->p, ev)) {
		int line = (int)s->p.problem_mark.line + 1;
		if (s->p.context)
			return as_error_set(s->err, -EINVAL, "machine file '%s': line %d: %s %s", s->name, line,
					    s->p.problem ? s->p.problem : "malformed YAML", s->p.context);
		return perr(s, line, "%s", s->p.problem ? s->p.problem : "malformed YAML");
	}
	return 0;
}

/* Only YAML's own tags (!!omap, !!str, ...) are kept; local and verbatim tags carry nothing a
 * machine file uses, and percent-escapes in them would not survive a round trip (found by fuzzing). */
static char *tag_of(const yaml_char_t *tag)
{
	static const char std[] = "tag:yaml.org,2002:";
	if (!tag || strncmp((const char *)tag, std, sizeof(std) - 1))
		return NULL;
	const char *name = (const char *)tag + sizeof(std) - 1;
	if (!*name)
		return NULL;
	for (const char *c = name; *c; c++)
		if (*c < 'a' || *c > 'z')
			return NULL;
	return strdup((const char *)tag);
}

/* Parses the node that starts with *ev (consumed). */
static struct mnode *parse_node(struct pstate *s, yaml_event_t *ev, int depth)
{
	int line = (int)ev->start_mark.line + 1;
	if (depth > MTREE_MAX_DEPTH) {
		perr(s, line, "nested deeper than %s levels", "64");
		yaml_event_delete(ev);
		return NULL;
	}
	struct mnode *n = calloc(1, sizeof(*n));
	if (!n) {
		yaml_event_delete(ev);
		as_error_set(s->err, -ENOMEM, "machine file '%s': out of memory", s->name);
		return NULL;
	}
	n->line = line;
	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		perr(s, line, "aliases (*%s) are not supported in machine files", (const char *)ev->data.alias.anchor);
		yaml_event_delete(ev);
		free(n);
		return NULL;
	case YAML_SCALAR_EVENT:
		n->kind = MN_SCALAR;
		n->text = dupn((const char *)ev->data.scalar.value, ev->data.scalar.length);
		n->style = ev->data.scalar.style;
		if (!ev->data.scalar.plain_implicit && !ev->data.scalar.quoted_implicit)
			n->tag = tag_of(ev->data.scalar.tag);
		if (n->text && strlen(n->text) != ev->data.scalar.length) {
			perr(s, line, "%s", "a value holds a NUL character");
			yaml_event_delete(ev);
			mnode_free(n);
			return NULL;
		}
		yaml_event_delete(ev);
		if (!n->text) {
			mnode_free(n);
			return NULL;
		}
		return n;
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT: {
		int map = ev->type == YAML_MAPPING_START_EVENT;
		n->kind = map ? MN_MAP : MN_SEQ;
		n->flow = map ? ev->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
			      : ev->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE;
		if (!(map ? ev->data.mapping_start.implicit : ev->data.sequence_start.implicit))
			n->tag = tag_of(map ? ev->data.mapping_start.tag : ev->data.sequence_start.tag);
		yaml_event_delete(ev);
		for (;;) {
			yaml_event_t e;
			if (next(s, &e) != 0)
				goto fail;
			if (e.type == (map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT)) {
				yaml_event_delete(&e);
				return n;
			}
			char *key = NULL;
			int key_line = (int)e.start_mark.line + 1;
			if (map) {
				if (e.type != YAML_SCALAR_EVENT) {
					perr(s, key_line, "%s", "a mapping key must be a plain string");
					yaml_event_delete(&e);
					goto fail;
				}
				key = dupn((const char *)e.data.scalar.value, e.data.scalar.length);
				yaml_event_delete(&e);
				if (!key)
					goto fail;
				for (size_t i = 0; i < n->n; i++)
					if (!strcmp(n->keys[i], key)) {
						perr(s, key_line, "key '%s' appears twice", key);
						free(key);
						goto fail;
					}
				if (next(s, &e) != 0) {
					free(key);
					goto fail;
				}
			}
			struct mnode *v = parse_node(s, &e, depth + 1);
			if (!v || mnode_add(n, key, key_line, v) != 0) {
				free(key);
				mnode_free(v);
				goto fail;
			}
		}
	}
	default:
		perr(s, line, "%s", "unexpected YAML event");
		yaml_event_delete(ev);
		free(n);
		return NULL;
	}
fail:
	mnode_free(n);
	return NULL;
}

/* Leading comment lines (blank lines before and between them are dropped). Lines end where YAML
 * says they do: at \n, \r or \r\n; a line holding one of YAML 1.1's other breaks (NEL, LS, PS)
 * ends the header, since what follows such a break is content. */
static char *header_of(const char *buf, size_t len)
{
	size_t i = 0, out = 0;
	char *h = malloc(len + 2);
	if (!h)
		return NULL;
	while (i < len) {
		size_t e = i;
		while (e < len && buf[e] != '\n' && buf[e] != '\r')
			e++;
		size_t next = e + (e + 1 < len && buf[e] == '\r' && buf[e + 1] == '\n' ? 2 : 1);
		size_t b = i;
		while (b < e && (buf[b] == ' ' || buf[b] == '\t'))
			b++;
		if (b == e) { /* blank */
			i = next;
			continue;
		}
		if (buf[b] != '#')
			break;
		int odd_break = 0;
		for (size_t k = b; k + 1 < e; k++)
			if ((buf[k] == '\xc2' && buf[k + 1] == '\x85') ||
			    (k + 2 < e && buf[k] == '\xe2' && buf[k + 1] == '\x80' && (buf[k + 2] == '\xa8' || buf[k + 2] == '\xa9')))
				odd_break = 1;
		if (odd_break)
			break;
		memcpy(h + out, buf + b, e - b);
		out += e - b;
		h[out++] = '\n';
		i = next;
	}
	if (out == 0) {
		free(h);
		return NULL;
	}
	h[out] = 0;
	return h;
}

int mtree_parse(const char *buf, size_t len, const char *name, struct mtree *t, struct as_error *err)
{
	*t = (struct mtree){ 0 };
	if (memchr(buf, 0, len))
		return as_error_set(err, -EINVAL, "machine file '%s': a binary file (it holds NUL bytes), not YAML", name);
	struct pstate s = { .name = name, .err = err };
	if (!yaml_parser_initialize(&s.p))
		return as_error_set(err, -ENOMEM, "machine file '%s': cannot start the YAML parser", name);
	yaml_parser_set_input_string(&s.p, (const unsigned char *)buf, len);
	yaml_event_t ev;
	int rc = -1, docs = 0;
	while (next(&s, &ev) == 0) {
		if (ev.type == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			rc = 0;
			break;
		}
		if (ev.type == YAML_DOCUMENT_START_EVENT && ++docs > 1) {
			perr(&s, (int)ev.start_mark.line + 1, "%s", "more than one YAML document");
			yaml_event_delete(&ev);
			break;
		}
		if (ev.type == YAML_SCALAR_EVENT || ev.type == YAML_SEQUENCE_START_EVENT ||
		    ev.type == YAML_MAPPING_START_EVENT || ev.type == YAML_ALIAS_EVENT) {
			struct mnode *root = parse_node(&s, &ev, 0);
			if (!root)
				break;
			t->root = root;
			continue;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&s.p);
	if (rc != 0) {
		mtree_free(t);
		if (!err || !err->code)
			as_error_set(err, -EINVAL, "machine file '%s': not YAML", name);
		return -1;
	}
	if (!t->root || (t->root->kind == MN_SCALAR && mnode_is_null(t->root))) {
		mtree_free(t);
		return as_error_set(err, -EINVAL, "machine file '%s': the file is empty", name);
	}
	if (t->root->kind != MN_MAP) {
		int line = t->root->line;
		mtree_free(t);
		return as_error_set(err, -EINVAL, "machine file '%s': line %d: the document must be a mapping of keys "
						  "(model name: ..., clock: ..., ...)", name, line);
	}
	t->header = header_of(buf, len);
	return 0;
}

int mtree_load(const char *path, struct mtree *t, struct as_error *err)
{
	size_t len = 0;
	char *buf = file_read_input(path, "machine file", MTREE_MAX_BYTES, &len, err);
	if (!buf)
		return -1;
	int rc = mtree_parse(buf, len, strcmp(path, "-") ? path : "<stdin>", t, err);
	free(buf);
	return rc;
}

/* --- lookups ---------------------------------------------------------------------------- */

struct mnode *mnode_get(const struct mnode *map, const char *key)
{
	if (!map || map->kind != MN_MAP)
		return NULL;
	for (size_t i = 0; i < map->n; i++)
		if (!strcmp(map->keys[i], key))
			return map->vals[i];
	return NULL;
}

int mnode_is_null(const struct mnode *n)
{
	if (!n || n->kind != MN_SCALAR || n->tag || n->style != YAML_PLAIN_SCALAR_STYLE)
		return 0;
	const char *s = n->text;
	return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") || !strcmp(s, "NULL");
}
