/* stat's results (`archscope stat --json`, `stat -o FILE`): per event its per-run values and their
 * statistics, the metrics of a group, the runs with the conditions each ran in, per thread, the
 * intervals of -I and the conditions of the machine around the runs. cli's renderer writes these
 * keys; compare reads a saved result back through them (measure/stat-json.c). */
#ifndef ARCHSCOPE_MACHINE_RESULT_STAT_H
#define ARCHSCOPE_MACHINE_RESULT_STAT_H

#include "machine/schema.h"

#define STAT_RESULT(X)                                                                                        \
	X(ST_COMMAND, ST_ROOT, TEXT, "command", "", 0, "the program as typed (-p PID, -a without one)")            \
	X(ST_TARGET, ST_ROOT, TEXT, "target", "", 0, "what was counted: program, attach or system")               \
	X(ST_PID, ST_ROOT, INT, "pid", "", SCHEMA_OPT, "-p: the process counted")                                 \
	X(ST_CPUS, ST_ROOT, INT, "cpus", "CPUs", SCHEMA_OPT, "-a: the CPUs counted")                              \
	X(ST_RUNS, ST_ROOT, INT, "runs", "", 0, "runs per batch of events")                                       \
	X(ST_RUNS_DONE, ST_ROOT, INT, "runs_done", "", 0, "runs measured, every batch")                          \
	X(ST_PASSES, ST_ROOT, INT, "passes", "", 0, "batches of events (groups that open together)")             \
	X(ST_MODES, ST_ROOT, TEXT, "modes", "", 0, "the modes counted in (user, or user and kernel)")            \
	X(ST_SPREAD, ST_ROOT, TEXT, "spread", "", 0, "what the ± of the text is")                                 \
	X(ST_INTERVAL, ST_ROOT, NUMBER, "interval_ms", "ms", SCHEMA_OPT, "-I: the interval")                      \
	X(ST_GROUP, ST_ROOT, TEXT, "group", "", SCHEMA_OPT, "-M: the metric group")                               \
	X(ST_GROUP_EVENTS, ST_ROOT, TEXT, "group_events", "", SCHEMA_OPT, "-M: the PMU of the group's events")    \
	X(ST_EVENTS, ST_ROOT, ROWS, "events", "", 0, "one row per event, in the order asked")                   \
	X(ST_EV_NAME, ST_EVENTS, TEXT, "name", "", 0, "the event as asked")                                       \
	X(ST_EV_UNIT, ST_EVENTS, TEXT, "unit", "", SCHEMA_NULL, "the unit of its values (events, ns, KiB, ...)")           \
	X(ST_EV_VALUES, ST_EVENTS, NUMBERS, "values", "", 0, "per run (null: not counted in that run)")          \
	X(ST_EV_MEAN, ST_EVENTS, NUMBER, "mean", "", 0, "the mean over the runs counted")                        \
	X(ST_EV_STDDEV, ST_EVENTS, NUMBER, "stddev", "", 0, "their standard deviation")                          \
	X(ST_EV_SEM, ST_EVENTS, NUMBER, "sem", "", 0, "the standard error of the mean")                          \
	X(ST_EV_N, ST_EVENTS, INT, "n", "", 0, "runs counted")                                                    \
	X(ST_EV_AVAILABLE, ST_EVENTS, BOOL, "available", "", 0, "whether it opens here")                          \
	X(ST_EV_REASON, ST_EVENTS, TEXT, "reason", "", SCHEMA_NULL, "why it was not counted (null: it was)")     \
	X(ST_EV_MIN, ST_EVENTS, NUMBER, "min", "", 0, "the smallest value")                                       \
	X(ST_EV_MAX, ST_EVENTS, NUMBER, "max", "", 0, "the largest value")                                        \
	X(ST_EV_ZERO, ST_EVENTS, BOOL, "zero", "", 0, "every run counted 0")                                      \
	X(ST_EV_CONSTANT, ST_EVENTS, BOOL, "constant", "", 0, "every run counted the same")                       \
	X(ST_EV_MULTIPLEXED, ST_EVENTS, BOOL, "multiplexed", "", 0, "counted part of the time and scaled")       \
	X(ST_EV_SHARE, ST_EVENTS, NUMBERS, "running_share", "", 0, "per run, the share of the time it counted")  \
	X(ST_EV_SOURCE, ST_EVENTS, TEXT, "source", "", 0, "perf hardware, perf software, rusage, ...")           \
	X(ST_EV_ENCODING, ST_EVENTS, TEXT, "encoding", "", SCHEMA_NULL, "as libpfm4 qualified it")               \
	X(ST_EV_PASS, ST_EVENTS, INT, "pass", "", 0, "the batch it was counted in")                               \
	X(ST_EV_RATE, ST_EVENTS, OBJECT, "rate", "", SCHEMA_NULL, "the derived rate (null: none)")               \
	X(ST_EV_RATE_VALUE, ST_EV_RATE, NUMBER, "value", "", 0, "its value")                                      \
	X(ST_EV_RATE_UNIT, ST_EV_RATE, TEXT, "unit", "", 0, "its unit (GHz, CPUs utilized, /s)")                 \
	X(ST_EV_RATE_FORMULA, ST_EV_RATE, TEXT, "formula", "", 0, "how it is derived")                            \
	X(ST_METRICS, ST_ROOT, ROWS, "metrics", "", SCHEMA_OPT, "-M: one row per metric of the group")          \
	X(ST_MT_NAME, ST_METRICS, TEXT, "name", "", 0, "the metric")                                              \
	X(ST_MT_VALUE, ST_METRICS, NUMBER, "value", "", 0, "its value (null: an event it needs not counted)")    \
	X(ST_MT_FORMULA, ST_METRICS, TEXT, "formula", "", 0, "its expression")                                    \
	X(ST_HW_REASON, ST_ROOT, TEXT, "hardware_reason", "", SCHEMA_NULL,                                        \
	  "why no hardware event was counted (null: they were)")                                                  \
	X(ST_HW_HINT, ST_ROOT, TEXT, "hardware_hint", "", SCHEMA_OPT, "what counting them needs")                 \
	X(ST_RUNS_DETAIL, ST_ROOT, ROWS, "runs_detail", "", 0, "one row per run, in order")                      \
	X(ST_RUN_PASS, ST_RUNS_DETAIL, INT, "pass", "", 0, "the batch of the run")                                \
	X(ST_RUN_EXITED, ST_RUNS_DETAIL, BOOL, "exited", "", 0, "it exited (false: a signal ended it)")          \
	X(ST_RUN_EXIT_STATUS, ST_RUNS_DETAIL, INT, "exit_status", "", SCHEMA_NULL, "its exit status")            \
	X(ST_RUN_SIGNAL, ST_RUNS_DETAIL, INT, "signal", "", SCHEMA_NULL, "the signal that ended it")             \
	X(ST_RUN_SECONDS, ST_RUNS_DETAIL, NUMBER, "seconds", "s", 0, "its wall time")                            \
	X(ST_RUN_STDERR, ST_RUNS_DETAIL, TEXT, "stderr", "", 0, "the end of its stderr")                          \
	X(ST_RUN_COND, ST_RUNS_DETAIL, REF, "conditions", "conditions", 0, "the conditions it ran in")           \
	X(ST_RUN_NOISY, ST_RUNS_DETAIL, BOOL, "noisy", "", 0, "other work disturbed it")                          \
	X(ST_NOISY_RUNS, ST_ROOT, INT, "noisy_runs", "", 0, "runs other work disturbed")                          \
	X(ST_THREADS, ST_ROOT, ROWS, "threads", "", SCHEMA_OPT, "--per-thread: every thread of every run")       \
	X(ST_TH_RUN, ST_THREADS, INT, "run", "", 0, "the run (from 0)")                                           \
	X(ST_TH_INDEX, ST_THREADS, INT, "index", "", 0, "0: the main thread, then in order of creation")          \
	X(ST_TH_TID, ST_THREADS, INT, "tid", "", 0, "its thread id")                                              \
	X(ST_TH_COMM, ST_THREADS, TEXT, "comm", "", 0, "its name")                                                \
	X(ST_TH_EVENTS, ST_THREADS, NUMBER_MAP, "events", "", 0, "its count of each perf event")                      \
	X(ST_INTERVALS, ST_ROOT, ROWS, "intervals", "", SCHEMA_OPT, "-I: every interval")                         \
	X(ST_IV_RUN, ST_INTERVALS, INT, "run", "", 0, "the run (from 0)")                                         \
	X(ST_IV_T, ST_INTERVALS, NUMBER, "t_s", "s", 0, "the time at its end")                                    \
	X(ST_IV_EVENTS, ST_INTERVALS, NUMBER_MAP, "events", "", 0, "the count of each perf event in it")             \
	X(ST_REGIONS, ST_ROOT, REFS, "regions", "region", SCHEMA_OPT, "--regions: the marked regions, in order of first use") \
	X(ST_REGION_MARKS, ST_ROOT, REF, "region_marks", "region marks", SCHEMA_OPT, "--regions: how the marks were kept") \
	X(ST_COND, ST_ROOT, OBJECT, "conditions", "", SCHEMA_OPT, "the machine around the runs")                 \
	X(ST_COND_STARTED, ST_COND, TEXT, "started", "", 0, "when the runs began (UTC, ISO 8601)")               \
	X(ST_COND_ENDED, ST_COND, TEXT, "ended", "", 0, "when they ended")                                        \
	X(ST_COND_LOAD_BEFORE, ST_COND, NUMBERS, "loadavg_before", "", 0, "load averages (1, 5, 15 min) before")  \
	X(ST_COND_LOAD_AFTER, ST_COND, NUMBERS, "loadavg_after", "", 0, "and after")                              \
	X(ST_COND_CLOCK_BEFORE, ST_COND, NUMBER, "clock_ghz_before", "GHz", 0, "the clock measured before")       \
	X(ST_COND_CLOCK_AFTER, ST_COND, NUMBER, "clock_ghz_after", "GHz", 0, "and after")                         \
	X(ST_COND_CLOCK_METHOD, ST_COND, TEXT, "clock_method", "", 0, "how the clock was measured")               \
	X(ST_COND_MHZ_OS, ST_COND, NUMBER, "cpu_mhz_os", "MHz", 0, "the clock the OS reports")                   \
	X(ST_COND_GOVERNOR, ST_COND, TEXT, "governor", "", SCHEMA_NULL, "the frequency governor (null: none)")   \
	X(ST_COND_CPU_MODEL, ST_COND, TEXT, "cpu_model", "", 0, "the CPU")                                        \
	X(ST_COND_KERNEL, ST_COND, TEXT, "kernel", "", 0, "the kernel's release")                                 \
	X(ST_COND_ARCHSCOPE, ST_COND, TEXT, "archscope", "", 0, "archscope's version")                            \
	X(ST_COND_HOSTNAME, ST_COND, TEXT, "hostname", "", 0, "the host")                                         \
	X(ST_COND_CPUS_ALLOWED, ST_COND, TEXT, "cpus_allowed", "", 0, "the CPUs archscope may run on")            \
	X(ST_COND_CPUS_ONLINE, ST_COND, INT, "cpus_online", "CPUs", 0, "the CPUs online")                        \
	X(ST_FAILED, ST_ROOT, INT, "failed_runs", "", 0, "runs that exited non-zero")                            \
	X(ST_CRASHED, ST_ROOT, INT, "crashed_runs", "", 0, "runs a signal ended")                                 \
	X(ST_INTERRUPTED, ST_ROOT, BOOL, "interrupted", "", 0, "a signal cut the runs short")                     \
	X(ST_SIGNAL_RECEIVED, ST_ROOT, TEXT, "signal_received", "", SCHEMA_NULL, "the signal that ended counting")

SCHEMA_ENUM(ST, STAT_RESULT);
extern const struct schema stat_result;
#define ST_KEY(id) SCHEMA_KEY(stat_result, ST_##id)

#endif
