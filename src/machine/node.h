/* Typed values of machine-file scalars, shared by the checker and the reader: whether a node is
 * a positive count, a truth value, a number, a quantity with a unit or a string, and its value.
 * Each returns 1 and fills *out (when out is not NULL) when the node is one, else 0. */
#ifndef ARCHSCOPE_MACHINE_NODE_H
#define ARCHSCOPE_MACHINE_NODE_H

#include "machine/mtree.h"

int machine_node_pos_int(const struct mnode *n, long *out);
/* true, false, True or False. */
int machine_node_bool(const struct mnode *n);
int machine_node_number(const struct mnode *n, double *out);
/* A quantity whose unit starts with `unit` ("" accepts a bare number), value >= 0 (> 0 when
 * positive), in the unit without prefix ("32 kB" -> 32000). */
int machine_node_quantity(const struct mnode *n, const char *unit, int positive, double *out);
/* Any scalar but a null. */
int machine_node_string(const struct mnode *n);

#endif
