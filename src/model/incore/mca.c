/* llvm-mca on the loop: running it with the machine file's -mcpu and reading its JSON into port
 * pressure, T_OL and T_nOL per pass; see incore.h. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/atomicfile.h"
#include "common/spawn.h"
#include "model/incore/incore.h"
#include "model/mcpu.h"
#include "model/incore/work.h"
#include "report/output.h"

static int in_list(const char list[][INCORE_PORT_LEN], int n, const char *name)
{
	size_t base = strcspn(name, ".");
	for (int i = 0; i < n; i++)
		if (!strcmp(list[i], name) || (strlen(list[i]) == base && !strncmp(list[i], name, base)))
			return 1;
	return 0;
}

int incore_parse_mca(const char *json_text, const struct incore_config *cfg, struct incore_mca *out, struct as_error *err)
{
	memset(out, 0, sizeof(*out));
	/* llvm-mca 14 names a group's units with "\u0000", "\u0001" (below): NUL allowed here */
	json_t *root = output_json_parse(json_text, strlen(json_text), "the output of", "llvm-mca --json", 1, OUTPUT_JSON_NUL, err);
	if (!root)
		return err ? err->code : -EINVAL;
	int rc = 0;
	json_t *res = json_object_get(json_object_get(root, "TargetInfo"), "Resources");
	json_t *region = json_array_get(json_object_get(root, "CodeRegions"), 0);
	json_t *sum = json_object_get(region, "SummaryView");
	json_t *ins = json_object_get(region, "Instructions");
	json_t *info = json_object_get(json_object_get(region, "InstructionInfoView"), "InstructionList");
	json_t *rp = json_object_get(json_object_get(region, "ResourcePressureView"), "ResourcePressureInfo");
	if (!json_is_array(res) || !json_is_object(sum) || !json_is_array(ins) || !json_is_array(rp)) {
		json_decref(root);
		return as_error_set(err, -EINVAL, "llvm-mca output lacks TargetInfo.Resources or the code region's views");
	}
	out->nports = (int)json_array_size(res);
	if (out->nports > INCORE_MAX_PORTS)
		out->nports = INCORE_MAX_PORTS;
	for (int p = 0; p < out->nports; p++) {
		/* llvm-mca 14 names the units of a group "SBPort23.\u0000", "SBPort23.\u0001": made
		 * "SBPort23.0", "SBPort23.1" (a port list entry "SBPort23" matches both) */
		json_t *nm = json_array_get(res, (size_t)p);
		const char *v = json_string_value(nm);
		size_t len = v ? json_string_length(nm) : 0, w = 0;
		for (size_t c = 0; c < len && w + 4 < INCORE_PORT_LEN; c++) {
			unsigned char ch = (unsigned char)v[c];
			if (ch < 32)
				w += (size_t)snprintf(out->port[p] + w, INCORE_PORT_LEN - w, "%u", ch);
			else
				out->port[p][w++] = (char)ch;
		}
		out->port[p][w] = 0;
		if (!w)
			snprintf(out->port[p], INCORE_PORT_LEN, "?");
	}
	out->ninstr = (int)json_array_size(ins);
	if (out->ninstr > INCORE_MAX_INSTR)
		out->ninstr = INCORE_MAX_INSTR;
	for (int i = 0; i < out->ninstr; i++) {
		const char *s = json_string_value(json_array_get(ins, (size_t)i));
		if (!s)
			s = "?";
		snprintf(out->instr[i], sizeof(out->instr[i]), "%s", s);
		json_t *ix = json_array_get(info, (size_t)i);
		out->latency[i] = json_number_value(json_object_get(ix, "Latency"));
		out->may_load[i] = json_is_true(json_object_get(ix, "mayLoad"));
		for (char *c = out->instr[i]; *c; c++)
			if (*c == '\t')
				*c = ' ';
	}
	out->by_instr = calloc((size_t)(out->ninstr ? out->ninstr : 1) * (size_t)(out->nports ? out->nports : 1), sizeof(double));
	if (!out->by_instr) {
		json_decref(root);
		return as_error_set(err, -ENOMEM, "out of memory");
	}
	size_t i;
	json_t *e;
	json_array_foreach (rp, i, e) {
		json_int_t ii = json_integer_value(json_object_get(e, "InstructionIndex"));
		json_int_t ri = json_integer_value(json_object_get(e, "ResourceIndex"));
		double u = json_number_value(json_object_get(e, "ResourceUsage"));
		if (ri < 0 || ri >= out->nports)
			continue;
		/* the summary row (index = number of instructions) is the total; sum the rows ourselves */
		if (ii >= 0 && ii < out->ninstr) {
			out->by_instr[ii * out->nports + ri] += u;
			out->pressure[ri] += u;
		}
	}
	double total = json_number_value(json_object_get(sum, "TotalCycles"));
	double iters = json_number_value(json_object_get(sum, "Iterations"));
	out->cycles_per_pass = iters > 0 ? total / iters : 0;
	out->block_rthroughput = json_number_value(json_object_get(sum, "BlockRThroughput"));
	/* non-overlapping ports: the file's, else the ports loads use and instructions without memory
	 * operands never do (the load ports: Kerncraft's SKX file names SKXPort2 and SKXPort3) */
	int have_file = cfg && cfg->n_nol > 0;
	out->nol_from_file = have_file;
	for (int p = 0; p < out->nports; p++) {
		if (have_file) {
			out->is_nol[p] = in_list(cfg->nol, cfg->n_nol, out->port[p]);
			out->is_ol[p] = cfg->n_ol > 0 ? in_list(cfg->ol, cfg->n_ol, out->port[p]) : !out->is_nol[p];
			continue;
		}
		double from_loads = 0, from_plain = 0, all = 0;
		for (int x = 0; x < out->ninstr; x++) {
			json_t *ix = json_array_get(info, (size_t)x);
			int may_load = json_is_true(json_object_get(ix, "mayLoad"));
			int may_store = json_is_true(json_object_get(ix, "mayStore"));
			double u = out->by_instr[x * out->nports + p];
			all += u;
			if (may_load && !may_store)
				from_loads += u;
			if (!may_load && !may_store)
				from_plain += u;
		}
		out->is_nol[p] = all > 0 && from_plain == 0 && from_loads >= 0.5 * all;
		out->is_ol[p] = cfg && cfg->n_ol > 0 ? in_list(cfg->ol, cfg->n_ol, out->port[p]) : !out->is_nol[p];
	}
	for (int p = 0; p < out->nports; p++) {
		if (out->is_nol[p] && out->pressure[p] > out->t_nol_pass)
			out->t_nol_pass = out->pressure[p];
		if (out->is_ol[p] && out->pressure[p] > out->t_ol_pass)
			out->t_ol_pass = out->pressure[p];
	}
	json_decref(root);
	return rc;
}

void incore_mca_free(struct incore_mca *m)
{
	free(m->by_instr);
	m->by_instr = NULL;
}

/* llvm-mca's name: Debian's llvm-mca-19 (setup.sh installs it), else the unversioned one. */
static const char *mca_command(void)
{
	return spawn_have("llvm-mca-19") ? "llvm-mca-19" : "llvm-mca";
}

/* The widest vector registers the loop's assembly names. */
static int loop_vector_bits(const char *path)
{
	char *text = file_read_all(path, NULL);
	int bits = 0;
	if (text) {
		bits = strstr(text, "%zmm") ? 512 : strstr(text, "%ymm") ? 256 : strstr(text, "%xmm") ? 128 : 0;
		free(text);
	}
	return bits;
}

/* stdout + stderr of argv (its first 64 KiB), malloc'd; NULL when it did not run. */
static char *run_capture(char *const argv[], const char *path)
{
	struct spawn_result sr;
	struct as_error e = { 0 };
	if (spawn_run(argv, path, path, 30, -1, &sr, &e) != 0 || !sr.exited)
		return NULL;
	return file_read_all(path, NULL);
}

/* The -mcpu to run: the file's (the host's for "native") when this llvm-mca knows it and it has
 * the loop's vector width, else the nearest model that does (model/mcpu.h). */
static int choose_mcpu(const struct incore_config *cfg, struct incore_workdir *w, struct incore_mca *out,
		       struct as_error *err)
{
	char want[64];
	snprintf(want, sizeof(want), "%s", cfg->mcpu);
	out->vector_bits = loop_vector_bits(w->path[W_LOOP]);
	if (!strcmp(want, "native")) {
		char *llc[] = { spawn_have("llc-19") ? "llc-19" : "llc", "--version", NULL };
		char *text = run_capture(llc, w->path[W_PORTS_JSON]);
		if (!text || mcpu_parse_host(text, want, sizeof(want)) != 0)
			snprintf(want, sizeof(want), "native");
		free(text);
	}
	char *help[] = { (char *)mca_command(), "-mtriple=x86_64", "-mcpu=help", NULL };
	char *text = run_capture(help, w->path[W_PORTS_JSON]);
	char *names[256];
	size_t n = text ? mcpu_parse_help(text, names, 256) : 0;
	free(text);
	struct mcpu_choice c;
	int rc = 0;
	if (n == 0 || !strcmp(want, "native")) { /* cannot check: run it as the file says */
		snprintf(out->mcpu, sizeof(out->mcpu), "%.47s", want);
		out->mcpu_exact = 1;
		snprintf(out->mcpu_reason, sizeof(out->mcpu_reason), "%.47s, as the machine file says (not checked)", want);
	} else if (mcpu_choose(want, (const char *const *)names, n, out->vector_bits, &c) == 0) {
		snprintf(out->mcpu, sizeof(out->mcpu), "%s", c.name);
		out->mcpu_exact = c.exact;
		snprintf(out->mcpu_reason, sizeof(out->mcpu_reason), "%s", c.reason);
	} else {
		rc = as_error_set(err, -ENOTSUP, "no llvm-mca model for this loop: %s", c.reason);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	return rc;
}

int incore_mca_run(const struct incore_config *cfg, struct incore_workdir *w, struct incore_mca *out, struct as_error *err)
{
	int rc;
	char *json = NULL;
	char mcpu[96];
	struct incore_mca chosen = { 0 };
	if ((rc = choose_mcpu(cfg, w, &chosen, err)) != 0)
		return rc;
	snprintf(mcpu, sizeof(mcpu), "-mcpu=%s", chosen.mcpu);
	char *argv[] = { (char *)mca_command(), mcpu, "--json", "-iterations=1000", w->path[W_LOOP], NULL };
	struct spawn_result sr;
	if ((rc = spawn_run(argv, w->path[W_JSON], w->path[W_ERR], 120, -1, &sr, err)))
		goto out;
	if (!sr.exited || sr.status != 0) {
		char msg[400];
		spawn_head(w->path[W_ERR], msg, sizeof(msg));
		rc = as_error_set(err, -EIO, "llvm-mca %s failed: %s", mcpu, msg);
		goto out;
	}
	json = file_read_all(w->path[W_JSON], NULL);
	if (!json) {
		rc = as_error_set(err, -EIO, "cannot read llvm-mca's output");
		goto out;
	}
	if ((rc = incore_parse_mca(json, cfg, out, err)))
		goto out;
	if (cfg->n_nol == 0) {
		/* the load ports of this -mcpu: where llvm-mca puts plain integer loads */
		struct incore_config probe = *cfg;
		FILE *pf = fopen(w->path[W_PORTS_S], "w");
		if (!pf || fputs("movq (%rsi), %rax\nmovq 8(%rsi), %rcx\nmovq 16(%rsi), %rdx\nmovq 24(%rsi), %rdi\n", pf) < 0 ||
		    fclose(pf)) {
			rc = as_error_set(err, -EIO, "cannot write the load-port probe");
			goto out;
		}
		char *pargv[] = { argv[0], mcpu, "--json", "-iterations=100", w->path[W_PORTS_S], NULL };
		if ((rc = spawn_run(pargv, w->path[W_PORTS_JSON], w->path[W_ERR], 120, -1, &sr, err)))
			goto out;
		char *pj = file_read_all(w->path[W_PORTS_JSON], NULL);
		struct incore_mca pm;
		struct as_error perr = { 0 };
		if (pj && sr.exited && sr.status == 0 && incore_parse_mca(pj, NULL, &pm, &perr) == 0) {
			for (int p = 0; p < pm.nports && probe.n_nol < INCORE_MAX_PORTS; p++)
				if (pm.pressure[p] > 0.01)
					snprintf(probe.nol[probe.n_nol++], INCORE_PORT_LEN, "%s", pm.port[p]);
			incore_mca_free(&pm);
		}
		free(pj);
		if (probe.n_nol > 0) {
			incore_mca_free(out);
			if ((rc = incore_parse_mca(json, &probe, out, err)))
				goto out;
			out->nol_from_file = 0;
		}
	}
out:
	if (rc == 0) {
		memcpy(out->mcpu, chosen.mcpu, sizeof(out->mcpu));
		memcpy(out->mcpu_reason, chosen.mcpu_reason, sizeof(out->mcpu_reason));
		out->mcpu_exact = chosen.mcpu_exact;
		out->vector_bits = chosen.vector_bits;
	}
	free(json);
	return rc;
}
