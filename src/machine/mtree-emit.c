/* Machine-file YAML trees out: the canonical emission through libyaml's emitter, and the
 * conversions from and to JSON; see mtree.h. */
#include "machine/mtree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "common/atomicfile.h"

/* --- emission ---------------------------------------------------------------------------- */

static int emit_handler(void *data, unsigned char *buffer, size_t size)
{
	return fwrite(buffer, 1, size, (FILE *)data) == size;
}

static int emit_scalar(yaml_emitter_t *em, const char *text, const char *tag, int style)
{
	yaml_event_t ev;
	yaml_scalar_event_initialize(&ev, NULL, (yaml_char_t *)tag, (yaml_char_t *)text, (int)strlen(text), !tag, !tag,
				     (yaml_scalar_style_t)style);
	return yaml_emitter_emit(em, &ev);
}

static int emit_node(yaml_emitter_t *em, const struct mnode *n)
{
	yaml_event_t ev;
	switch (n->kind) {
	case MN_SCALAR:
		return emit_scalar(em, n->text, n->tag, n->style ? n->style : YAML_PLAIN_SCALAR_STYLE);
	case MN_SEQ:
	case MN_MAP: {
		/* a list's items, or a mapping's keys and values, between a start and an end event */
		int map = n->kind == MN_MAP;
		if (map)
			yaml_mapping_start_event_initialize(&ev, NULL, (yaml_char_t *)n->tag, !n->tag,
							    n->flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
		else
			yaml_sequence_start_event_initialize(&ev, NULL, (yaml_char_t *)n->tag, !n->tag,
							     n->flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE);
		if (!yaml_emitter_emit(em, &ev))
			return 0;
		for (size_t i = 0; i < n->n; i++)
			if ((map && !emit_scalar(em, n->keys[i], NULL, YAML_ANY_SCALAR_STYLE)) || !emit_node(em, n->vals[i]))
				return 0;
		if (map)
			yaml_mapping_end_event_initialize(&ev);
		else
			yaml_sequence_end_event_initialize(&ev);
		return yaml_emitter_emit(em, &ev);
	}
	}
	return 0;
}

int mtree_emit(const struct mtree *t, FILE *out, struct as_error *err)
{
	if (t->header)
		fputs(t->header, out);
	yaml_emitter_t em;
	yaml_event_t ev;
	if (!yaml_emitter_initialize(&em))
		return as_error_set(err, -ENOMEM, "cannot start the YAML emitter");
	yaml_emitter_set_output(&em, emit_handler, out);
	yaml_emitter_set_unicode(&em, 1);
	yaml_emitter_set_width(&em, -1);
	yaml_emitter_set_indent(&em, 2);
	int ok = 1;
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	ok = ok && yaml_emitter_emit(&em, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	ok = ok && yaml_emitter_emit(&em, &ev);
	ok = ok && emit_node(&em, t->root);
	yaml_document_end_event_initialize(&ev, 1);
	ok = ok && yaml_emitter_emit(&em, &ev);
	yaml_stream_end_event_initialize(&ev);
	ok = ok && yaml_emitter_emit(&em, &ev);
	const char *problem = em.problem;
	yaml_emitter_delete(&em);
	if (!ok)
		return as_error_set(err, -EIO, "cannot write YAML: %s", problem ? problem : "write error");
	return 0;
}

char *mtree_emit_string(const struct mtree *t, struct as_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f) {
		as_error_set(err, -ENOMEM, "out of memory");
		return NULL;
	}
	int rc = mtree_emit(t, f, err);
	fclose(f);
	if (rc != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

int mtree_write_file(const struct mtree *t, const char *path, int flags, struct as_error *err)
{
	char *s = mtree_emit_string(t, err);
	if (!s)
		return err ? err->code : -ENOMEM;
	struct atomic_file af;
	int rc = atomic_file_open_mode(&af, path, flags, err);
	if (rc == 0 && fputs(s, af.fp) == EOF) {
		int e = errno ? errno : EIO; /* a full disk or /dev/full: ENOSPC */
		atomic_file_abort(&af);
		rc = as_error_set(err, -e, "cannot write '%s': %s", path, strerror(e));
	} else if (rc == 0) {
		rc = atomic_file_commit(&af, err);
	}
	free(s);
	return rc;
}

/* --- conversions ------------------------------------------------------------------------ */

/* 1 when a plain scalar with this text would not read back as the string. */
static int needs_quotes(const char *s)
{
	if (!*s || !strcmp(s, "~") || !strcasecmp(s, "null") || !strcasecmp(s, "true") || !strcasecmp(s, "false") ||
	    !strcasecmp(s, "yes") || !strcasecmp(s, "no") || !strcasecmp(s, "on") || !strcasecmp(s, "off"))
		return 1;
	char *end;
	errno = 0;
	(void)strtod(s, &end);
	return *end == 0;
}

struct mnode *mnode_from_json(const json_t *j)
{
	struct mnode *n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	char buf[64];
	n->style = YAML_PLAIN_SCALAR_STYLE;
	switch (json_typeof(j)) {
	case JSON_OBJECT: {
		n->kind = MN_MAP;
		const char *k;
		json_t *v;
		json_object_foreach((json_t *)j, k, v) {
			char *key = strdup(k);
			struct mnode *c = mnode_from_json(v);
			if (!key || !c || mnode_add(n, key, 0, c) != 0) {
				free(key);
				mnode_free(c);
				mnode_free(n);
				return NULL;
			}
		}
		return n;
	}
	case JSON_ARRAY: {
		n->kind = MN_SEQ;
		n->flow = 1;
		size_t i;
		json_t *v;
		json_array_foreach(j, i, v) {
			if (json_is_object(v) || json_is_array(v))
				n->flow = 0;
			struct mnode *c = mnode_from_json(v);
			if (!c || mnode_add(n, NULL, 0, c) != 0) {
				mnode_free(c);
				mnode_free(n);
				return NULL;
			}
		}
		/* a flow sequence of sequences reads badly: block unless every element is a scalar */
		return n;
	}
	case JSON_STRING:
		n->text = strdup(json_string_value(j));
		if (n->text && needs_quotes(n->text))
			n->style = YAML_SINGLE_QUOTED_SCALAR_STYLE;
		break;
	case JSON_INTEGER:
		snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT, json_integer_value(j));
		n->text = strdup(buf);
		break;
	case JSON_REAL:
		snprintf(buf, sizeof(buf), "%.10g", json_real_value(j));
		if (!strpbrk(buf, ".eEn"))
			strcat(buf, ".0"); /* stays a real when read back */
		n->text = strdup(buf);
		break;
	case JSON_TRUE: n->text = strdup("true"); break;
	case JSON_FALSE: n->text = strdup("false"); break;
	case JSON_NULL: n->text = strdup("~"); break;
	}
	n->kind = MN_SCALAR;
	if (!n->text) {
		free(n);
		return NULL;
	}
	return n;
}

json_t *mnode_to_json(const struct mnode *n)
{
	switch (n->kind) {
	case MN_MAP: {
		json_t *o = json_object();
		for (size_t i = 0; i < n->n; i++)
			json_object_set_new(o, n->keys[i], mnode_to_json(n->vals[i]));
		return o;
	}
	case MN_SEQ: {
		json_t *a = json_array();
		for (size_t i = 0; i < n->n; i++)
			json_array_append_new(a, mnode_to_json(n->vals[i]));
		return a;
	}
	case MN_SCALAR:
		break;
	}
	if (n->style != YAML_PLAIN_SCALAR_STYLE || n->tag)
		return json_string(n->text);
	if (mnode_is_null(n))
		return json_null();
	if (!strcmp(n->text, "true") || !strcmp(n->text, "True"))
		return json_true();
	if (!strcmp(n->text, "false") || !strcmp(n->text, "False"))
		return json_false();
	char *end;
	errno = 0;
	long long v = strtoll(n->text, &end, 10);
	if (!*end && errno == 0)
		return json_integer(v);
	double d = strtod(n->text, &end);
	if (!*end && end != n->text)
		return json_real(d);
	return json_string(n->text);
}
