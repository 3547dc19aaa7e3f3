/* archscope cluster's point-to-point results: osu_latency, osu_bw and osu_bibw per message size for
 * one pair of each layer. */
#include "cli/cluster/cmd-cluster-impl.h"
#include "machine/result-cluster.h"
#include "report/emit.h"

#include <stdio.h>

void cli_cluster_render_p2p(struct emit *e, const struct cli_cluster_result *r)
{
	if (r->o->skip & CLI_CLUSTER_SKIP_P2P)
		return;
	emit_list_begin(e, CL_KEY(P2P), "point to point per message size");
	for (int k = 0; k < r->np2p; k++) {
		const struct cluster_p2p *m = &r->p2p[k];
		char title[200];
		snprintf(title, sizeof(title), "point to point, layer %d, ranks %d-%d (osu_latency; osu_bw and osu_bibw, window %d, one "
			 "receive buffer; %s counts)", r->p2p_layer[k] + 1, m->a, m->b, m->window, m->full ? "osu's" : "short");
		emit_object_begin(e, NULL, title);
		emit_int(e, CL_KEY(P2P_LAYER), NULL, r->p2p_layer[k] + 1, NULL);
		emit_array_begin(e, CL_KEY(P2P_PAIR), NULL);
		emit_int(e, NULL, NULL, m->a, NULL);
		emit_int(e, NULL, NULL, m->b, NULL);
		emit_array_end(e);
		emit_int(e, CL_KEY(P2P_WINDOW), NULL, m->window, "messages");
		emit_string(e, CL_KEY(P2P_COUNTS), NULL, m->full ? "osu" : "short");
		emit_table_begin(e, CL_KEY(P2P_SIZES), "per message size");
		for (int s = 0; s < m->n; s++) {
			const struct cluster_p2p_point *pt = &m->pt[s];
			emit_row_begin(e);
			emit_size(e, CL_KEY(P2P_BYTES), "message", pt->bytes);
			emit_number(e, CL_KEY(P2P_LATENCY), "latency", pt->latency_us, "us", "%.2f");
			emit_number(e, CL_KEY(P2P_BW), "bandwidth", pt->bandwidth_gbs, "GB/s", cli_cluster_sig(pt->bandwidth_gbs, 4));
			emit_number(e, CL_KEY(P2P_BIBW), "bidirectional", pt->bibandwidth_gbs, "GB/s", cli_cluster_sig(pt->bibandwidth_gbs, 4));
			emit_int(e, CL_KEY(P2P_LAT_ITERS), "round trips", pt->lat_iters, NULL);
			emit_int(e, CL_KEY(P2P_BW_ITERS), "windows", pt->bw_iters, NULL);
			emit_row_end(e);
		}
		emit_table_end(e);
		emit_object_end(e);
	}
	emit_list_end(e);
}

void cli_cluster_render_coll(struct emit *e, const struct cli_cluster_result *r)
{
	if (r->o->skip & CLI_CLUSTER_SKIP_COLLECTIVES)
		return;
	emit_table_begin(e, CL_KEY(COLL),
			 r->loggp_measured ? "collectives: a rank's mean time per call, least, mean and most over the ranks (IMB's t_min, "
					     "t_avg, t_max); the model: LogGP of the communicator's layer, the algorithm's messages"
					   : "collectives: a rank's mean time per call, least, mean and most over the ranks (IMB's t_min, "
					     "t_avg, t_max); no model (--skip loggp)");
	for (int k = 0; k < r->ncoll; k++) {
		const struct cluster_coll *c = &r->coll[k];
		emit_row_begin(e);
		emit_string(e, CL_KEY(COLL_COMM), "communicator", cluster_comm_name(c->comm));
		emit_int(e, CL_KEY(COLL_RANKS), "ranks", c->ranks, NULL);
		emit_string(e, CL_KEY(COLL_OP), "operation", cluster_coll_name(c->op));
		emit_size(e, CL_KEY(COLL_BYTES), "message", c->bytes);
		emit_int(e, CL_KEY(COLL_ITERS), "calls", c->iters, NULL);
		emit_number(e, CL_KEY(COLL_TMIN), "t_min", c->t_min_us, "us", "%.2f");
		emit_number(e, CL_KEY(COLL_TAVG), "t_avg", c->t_avg_us, "us", "%.2f");
		emit_number(e, CL_KEY(COLL_TMAX), "t_max", c->t_max_us, "us", "%.2f");
		emit_string(e, CL_KEY(COLL_ALGO), "model algorithm", cluster_coll_algorithm(c->op));
		if (c->layer >= 0)
			emit_int(e, CL_KEY(COLL_LAYER), "layer", c->layer + 1, NULL);
		else
			emit_null(e, CL_KEY(COLL_LAYER), "layer", NULL);
		emit_number(e, CL_KEY(COLL_MODEL), "model", c->model_us, "us", "%.2f");
		emit_number(e, CL_KEY(COLL_ERROR), "model error", c->model_error, NULL, "%+.2f");
		emit_row_end(e);
	}
	emit_table_end(e);
}
