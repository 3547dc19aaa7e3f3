/* The envelope of every command's JSON ({"archscope", "command", "machine", "results"}): the
 * machine block (host, kernel, CPUs, the settings that change what measurements mean), the end
 * of an emitted document, and rows of labelled numbers (see cli.h). */
#include "cli/cli.h"

#include <math.h>
#include <time.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "common/cpuset.h"
#include "machine/result-host.h"
#include "measure/counters.h"
#include "report/emit.h"
#include "report/output.h"
#include "topo/cpuinfo.h"
#include "topo/system.h"

json_t *cli_machine_json(void)
{
	json_t *m = json_object();
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	schema_set(&host_result, m, HO_HOSTNAME, output_json_string(host, NULL));
	struct utsname u;
	if (uname(&u) == 0) {
		schema_set(&host_result, m, HO_KERNEL, output_json_string(u.release, NULL));
		schema_set(&host_result, m, HO_ARCH, output_json_string(u.machine, NULL));
	}
	char model[256];
	if (topo_cpuinfo("model name", model, sizeof(model)) == 0)
		schema_set(&host_result, m, HO_CPU_MODEL, output_json_string(model, NULL));
	schema_set(&host_result, m, HO_CPUS_ONLINE, json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	struct as_cpulist allowed;
	char buf[1024];
	allowed.n = 0;
	if (cpulist_allowed(&allowed, NULL) == 0)
		schema_set(&host_result, m, HO_CPUS_ALLOWED, json_string(cpulist_format(&allowed, buf, sizeof(buf))));
	/* when, and the settings that change what measurements mean (null: the OS does not say) */
	time_t now = time(NULL);
	struct tm tm;
	if (gmtime_r(&now, &tm) && strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		schema_set(&host_result, m, HO_DATE, json_string(buf));
	struct topo_system sys;
	topo_system_read(&sys, allowed.n > 0 ? allowed.cpu[0] : 0, NULL);
	schema_set(&host_result, m, HO_GOVERNOR, sys.governor[0] ? json_string(sys.governor) : json_null());
	schema_set(&host_result, m, HO_THP, sys.thp[0] ? json_string(sys.thp) : json_null());
	schema_set(&host_result, m, HO_SMT, sys.smt[0] ? json_string(sys.smt) : json_null());
	schema_set(&host_result, m, HO_SMT_ACTIVE, sys.smt_active < 0 ? json_null() : json_boolean(sys.smt_active));
	schema_set(&host_result, m, HO_PMU, json_boolean(counters_hw_check() == 0));
	schema_set(&host_result, m, HO_LOADAVG, isfinite(sys.loadavg1) ? json_real(sys.loadavg1) : json_null());
	return m;
}

int cli_emit_end(struct emit *e, const char *command)
{
	struct as_error err = { 0 };
	size_t bad = emit_not_utf8(e);
	int rc = emit_end(e, command, emit_is_text(e) ? NULL : cli_machine_json(), &err);
	emit_free(e);
	if (bad)
		note("%zu byte%s in names or arguments %s not UTF-8: written as U+FFFD (\xef\xbf\xbd) in the JSON", bad,
		     bad == 1 ? "" : "s", bad == 1 ? "was" : "were");
	if (rc) {
		error_err(&err);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

void cli_emit_cells(struct emit *e, const struct cli_cell *cells, size_t n)
{
	for (size_t i = 0; i < n; i++)
		emit_number(e, NULL, cells[i].label, cells[i].value, cells[i].unit, cells[i].fmt);
}
