/* Machine files: a YAML document kept as an ordered tree of scalars (their text verbatim),
 * sequences and mappings, with the line each node starts on, so a checker can name the place of a
 * problem and a writer can give back the same bytes. Parsed with libyaml's event API, emitted with
 * its emitter in one canonical style; the comment lines at the top of a file are kept (the
 * citation of a hand-written machine), other comments are not. */
#ifndef ARCHSCOPE_MACHINE_MTREE_H
#define ARCHSCOPE_MACHINE_MTREE_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "common/error.h"

enum mnode_kind { MN_SCALAR, MN_SEQ, MN_MAP };

struct mnode {
	enum mnode_kind kind;
	int line;          /* 1-based line where the node starts */
	char *tag;         /* explicit tag ("tag:yaml.org,2002:omap"), or NULL */
	char *text;        /* scalar text */
	int style;         /* scalar style as read (yaml_scalar_style_t); plain = 1 */
	int flow;          /* collection written in flow style ([a, b] / {k: v}) */
	size_t n;          /* children */
	char **keys;       /* mapping keys (n of them) */
	int *key_lines;
	struct mnode **vals;
	size_t cap;        /* entries vals (and a mapping's keys and key_lines) have room for */
};

struct mtree {
	char *header;      /* the comment lines before the first content line, "\n"-terminated, or NULL */
	struct mnode *root;
};

/* Parses a YAML document held in memory. The error names `name` and the line. */
int mtree_parse(const char *buf, size_t len, const char *name, struct mtree *t, struct as_error *err);
/* Reads and parses a file (at most 4 MiB; a regular file, or "-": standard input). */
int mtree_load(const char *path, struct mtree *t, struct as_error *err);
void mtree_free(struct mtree *t);

/* The canonical text: header comments, then block mappings; sequences and mappings keep the flow
 * style they were read in; scalars keep their text and plain/quoted style. */
int mtree_emit(const struct mtree *t, FILE *out, struct as_error *err);
/* The same into a malloc'd string. */
char *mtree_emit_string(const struct mtree *t, struct as_error *err);
/* Writes atomically (temporary file, then rename); flags as atomic_file_open_mode's (AF_FORCE). */
int mtree_write_file(const struct mtree *t, const char *path, int flags, struct as_error *err);

/* Lookups: the value under key in a mapping (NULL when absent or not a mapping). */
struct mnode *mnode_get(const struct mnode *map, const char *key);
/* 1 when the node is a null scalar (~, null, empty, plain). */
int mnode_is_null(const struct mnode *n);

/* Building: appends v to a sequence, or under key (malloc'd; key_line 0 when unknown) to a
 * mapping; takes both on success. 0 or -1 (no memory). */
int mnode_add(struct mnode *n, char *key, int key_line, struct mnode *v);
/* A tree from a JSON object (strings become quoted scalars only when they would read
 * back as something else; reals are written with %.10g and keep a decimal point, so the text is what is kept). */
struct mnode *mnode_from_json(const json_t *j);
/* A JSON rendering of a tree (numbers, booleans and nulls recognised in plain scalars). */
json_t *mnode_to_json(const struct mnode *n);
void mnode_free(struct mnode *n);

#endif
