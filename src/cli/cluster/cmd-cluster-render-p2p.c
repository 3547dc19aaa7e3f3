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
			emit_number(e, CL_KEY(P2P_BW), "bandwidth", pt->bandwidth_gbs, "GB/s", "%.4g");
			emit_number(e, CL_KEY(P2P_BIBW), "bidirectional", pt->bibandwidth_gbs, "GB/s", "%.4g");
			emit_int(e, CL_KEY(P2P_LAT_ITERS), "round trips", pt->lat_iters, NULL);
			emit_int(e, CL_KEY(P2P_BW_ITERS), "windows", pt->bw_iters, NULL);
			emit_row_end(e);
		}
		emit_table_end(e);
		emit_object_end(e);
	}
	emit_list_end(e);
}
