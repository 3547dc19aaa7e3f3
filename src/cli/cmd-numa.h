/* What the files of `archscope numa` share: its sub-commands, reading flows and the topology,
 * the flows table of `load` and `model`, and the live ncurses view of `load`. */
#ifndef ARCHSCOPE_CLI_CMD_NUMA_H
#define ARCHSCOPE_CLI_CMD_NUMA_H

#include "numa/load.h"
#include "numa/matrix.h"
#include "numa/model.h"
#include "numa/place.h"
#include "report/emit.h"
#include "topo/topo.h"

int cmd_numa_matrix(int argc, char **argv);
int cmd_numa_load(int argc, char **argv);
int cmd_numa_model(int argc, char **argv);

/* Parses n flow texts "SRC:DST:THREADS" into f (at most NUMA_MAX_FLOWS). 0, or EXIT_USAGE after
 * error_usage(cmd, ...). */
int cli_numa_flows(const char *cmd, const char *const *text, int n, struct numa_flow *f);

/* The running machine (xml NULL) or a recorded hwloc XML file. 0, or an exit code after error(). */
int cli_numa_topology(const char *xml, struct topo *t);

/* The count of nodes under key, with the note every command prints on a machine of one node. */
void cli_numa_one_node_note(struct emit *e, const char *key, int nodes);

/* The flows under key, each a "numa flow" row (machine/result-numa.h: predicted_gbs and
 * measured_gbs null for NULL arrays), with the limit the model found (pred may be NULL) and the
 * CPUs of each flow (cpus may be NULL). */
void cli_numa_flows_render(struct emit *e, const char *key, const struct numa_flow *f, int n,
			   const struct numa_prediction *pred, const double *measured, const struct as_cpulist *cpus);

/* The live view of `numa load` on a terminal (ncurses): begin draws the frame, sample each
 * interval's figures, end restores the terminal. */
struct cli_numa_view;
struct cli_numa_view *cli_numa_view_begin(const struct numa_flow *f, int n, double duration_s, int alone);
void cli_numa_view_sample(struct cli_numa_view *v, const struct numa_load_sample *s);
void cli_numa_view_end(struct cli_numa_view *v);

#endif
