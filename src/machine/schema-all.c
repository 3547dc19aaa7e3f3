/* Every described result type (schema.h): one line each, for schema_by_name (a REF row names the
 * schema it holds), the unit tests that check each one, and `machine schema`. */
#include "machine/result-analyze.h"
#include "machine/result-bench.h"
#include "machine/result-cluster.h"
#include "machine/result-conditions.h"
#include "machine/result-host.h"
#include "machine/result-machine.h"
#include "machine/result-model.h"
#include "machine/result-numa.h"
#include "machine/result-plan.h"
#include "machine/result-region.h"
#include "machine/result-report.h"
#include "machine/result-stack.h"
#include "machine/result-stat-compare.h"
#include "machine/result-stat-events.h"
#include "machine/result-stat-memhist.h"
#include "machine/result-stat-phases.h"
#include "machine/result-stat-regress.h"
#include "machine/result-stat.h"
#include "machine/result-topology.h"
#include "machine/result-tune.h"
#include "machine/result-whatif.h"
#include "machine/schema.h"

const struct schema *const schema_all[] = {
	&conditions_result,
	&host_result,
	&machine_result,
	&bench_result, &bench_list_result, &bench_ecm_result, &bench_scaling_result,
	&numa_matrix_result, &numa_flow_result, &numa_load_result, &numa_model_result,
	&stat_result,
	&region_result, &region_marks_result, &region_stack_result,
	&compare_result,
	&regress_result,
	&phases_result,
	&memhist_result,
	&events_result,
	&stack_result,
	&whatif_result,
	&cluster_result,
	&model_result,
	&analyze_result,
	&topology_result,
	&plan_result,
	&report_result,
	&tune_gemm_result, &tune_stencil_result,
	NULL,
};
