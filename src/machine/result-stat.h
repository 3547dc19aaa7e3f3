/* stat's results (`archscope stat --json`, `stat -o FILE`): per event its per-run values and their
 * statistics, the metrics of a group, the runs with the conditions each ran in, per thread, the
 * intervals of -I and the conditions of the machine around the runs. cli's renderer writes these
 * keys; compare reads a saved result back through them (measure/stat-json.c). */
#ifndef ARCHSCOPE_MACHINE_RESULT_STAT_H
#define ARCHSCOPE_MACHINE_RESULT_STAT_H

#include "machine/schema.h"

#define STAT_RESULT(X)                                                                                        \
	X(SR_COMMAND, SR_ROOT, TEXT, "command", "", 0, "the program as typed (-p PID, -a without one)")            \
	X(SR_TARGET, SR_ROOT, TEXT, "target", "", 0, "what was counted: program, attach or system")               \
	X(SR_PID, SR_ROOT, INT, "pid", "", SCHEMA_OPT, "-p: the process counted")                                 \
	X(SR_CPUS, SR_ROOT, INT, "cpus", "CPUs", SCHEMA_OPT, "-a: the CPUs counted")                              \
	X(SR_RUNS, SR_ROOT, INT, "runs", "", 0, "runs per batch of events")                                       \
	X(SR_RUNS_DONE, SR_ROOT, INT, "runs_done", "", 0, "runs measured, every batch")                          \
	X(SR_PASSES, SR_ROOT, INT, "passes", "", 0, "batches of events (groups that open together)")             \
	X(SR_MODES, SR_ROOT, TEXT, "modes", "", 0, "the modes counted in (user, or user and kernel)")            \
	X(SR_SPREAD, SR_ROOT, TEXT, "spread", "", 0, "what the ± of the text is")                                 \
	X(SR_INTERVAL, SR_ROOT, NUMBER, "interval_ms", "ms", SCHEMA_OPT, "-I: the interval")                      \
	X(SR_GROUP, SR_ROOT, TEXT, "group", "", SCHEMA_OPT, "-M: the metric group")                               \
	X(SR_GROUP_EVENTS, SR_ROOT, TEXT, "group_events", "", SCHEMA_OPT, "-M: the PMU of the group's events")    \
	X(SR_EVENTS, SR_ROOT, ROWS, "events", "", 0, "one row per event, in the order asked")                   \
	X(SR_EV_NAME, SR_EVENTS, TEXT, "name", "", 0, "the event as asked")                                       \
	X(SR_EV_UNIT, SR_EVENTS, TEXT, "unit", "", SCHEMA_NULL, "the unit of its values (events, ns, KiB, ...)")           \
	X(SR_EV_VALUES, SR_EVENTS, NUMBERS, "values", "", 0, "per run (null: not counted in that run)")          \
	X(SR_EV_MEAN, SR_EVENTS, NUMBER, "mean", "", 0, "the mean over the runs counted")                        \
	X(SR_EV_STDDEV, SR_EVENTS, NUMBER, "stddev", "", 0, "their standard deviation")                          \
	X(SR_EV_SEM, SR_EVENTS, NUMBER, "sem", "", 0, "the standard error of the mean")                          \
	X(SR_EV_N, SR_EVENTS, INT, "n", "", 0, "runs counted")                                                    \
	X(SR_EV_AVAILABLE, SR_EVENTS, BOOL, "available", "", 0, "whether it opens here")                          \
	X(SR_EV_REASON, SR_EVENTS, TEXT, "reason", "", SCHEMA_NULL, "why it was not counted (null: it was)")     \
	X(SR_EV_MIN, SR_EVENTS, NUMBER, "min", "", 0, "the smallest value")                                       \
	X(SR_EV_MAX, SR_EVENTS, NUMBER, "max", "", 0, "the largest value")                                        \
	X(SR_EV_ZERO, SR_EVENTS, BOOL, "zero", "", 0, "every run counted 0")                                      \
	X(SR_EV_CONSTANT, SR_EVENTS, BOOL, "constant", "", 0, "every run counted the same")                       \
	X(SR_EV_MULTIPLEXED, SR_EVENTS, BOOL, "multiplexed", "", 0, "counted part of the time and scaled")       \
	X(SR_EV_SHARE, SR_EVENTS, NUMBERS, "running_share", "", 0, "per run, the share of the time it counted")  \
	X(SR_EV_SOURCE, SR_EVENTS, TEXT, "source", "", 0, "perf hardware, perf software, rusage, ...")           \
	X(SR_EV_ENCODING, SR_EVENTS, TEXT, "encoding", "", SCHEMA_NULL, "as libpfm4 qualified it")               \
	X(SR_EV_PASS, SR_EVENTS, INT, "pass", "", 0, "the batch it was counted in")                               \
	X(SR_EV_RATE, SR_EVENTS, OBJECT, "rate", "", SCHEMA_NULL, "the derived rate (null: none)")               \
	X(SR_EV_RATE_VALUE, SR_EV_RATE, NUMBER, "value", "", 0, "its value")                                      \
	X(SR_EV_RATE_UNIT, SR_EV_RATE, TEXT, "unit", "", 0, "its unit (GHz, CPUs utilized, /s)")                 \
	X(SR_EV_RATE_FORMULA, SR_EV_RATE, TEXT, "formula", "", 0, "how it is derived")                            \
	X(SR_METRICS, SR_ROOT, ROWS, "metrics", "", SCHEMA_OPT, "-M: one row per metric of the group")          \
	X(SR_MT_NAME, SR_METRICS, TEXT, "name", "", 0, "the metric")                                              \
	X(SR_MT_VALUE, SR_METRICS, NUMBER, "value", "", 0, "its value (null: an event it needs not counted)")    \
	X(SR_MT_FORMULA, SR_METRICS, TEXT, "formula", "", 0, "its expression")                                    \
	X(SR_HW_REASON, SR_ROOT, TEXT, "hardware_reason", "", SCHEMA_NULL,                                        \
	  "why no hardware event was counted (null: they were)")                                                  \
	X(SR_HW_HINT, SR_ROOT, TEXT, "hardware_hint", "", SCHEMA_OPT, "what counting them needs")                 \
	X(SR_RUNS_DETAIL, SR_ROOT, ROWS, "runs_detail", "", 0, "one row per run, in order")                      \
	X(SR_RUN_PASS, SR_RUNS_DETAIL, INT, "pass", "", 0, "the batch of the run")                                \
	X(SR_RUN_EXITED, SR_RUNS_DETAIL, BOOL, "exited", "", 0, "it exited (false: a signal ended it)")          \
	X(SR_RUN_EXIT_STATUS, SR_RUNS_DETAIL, INT, "exit_status", "", SCHEMA_NULL, "its exit status")            \
	X(SR_RUN_SIGNAL, SR_RUNS_DETAIL, INT, "signal", "", SCHEMA_NULL, "the signal that ended it")             \
	X(SR_RUN_SECONDS, SR_RUNS_DETAIL, NUMBER, "seconds", "s", 0, "its wall time")                            \
	X(SR_RUN_STDERR, SR_RUNS_DETAIL, TEXT, "stderr", "", 0, "the end of its stderr")                          \
	X(SR_RUN_COND, SR_RUNS_DETAIL, REF, "conditions", "conditions", 0, "the conditions it ran in")           \
	X(SR_RUN_NOISY, SR_RUNS_DETAIL, BOOL, "noisy", "", 0, "other work disturbed it")                          \
	X(SR_NOISY_RUNS, SR_ROOT, INT, "noisy_runs", "", 0, "runs other work disturbed")                          \
	X(SR_THREADS, SR_ROOT, ROWS, "threads", "", SCHEMA_OPT, "--per-thread: every thread of every run")       \
	X(SR_TH_RUN, SR_THREADS, INT, "run", "", 0, "the run (from 0)")                                           \
	X(SR_TH_INDEX, SR_THREADS, INT, "index", "", 0, "0: the main thread, then in order of creation")          \
	X(SR_TH_TID, SR_THREADS, INT, "tid", "", 0, "its thread id")                                              \
	X(SR_TH_COMM, SR_THREADS, TEXT, "comm", "", 0, "its name")                                                \
	X(SR_TH_EVENTS, SR_THREADS, NUMMAP, "events", "", 0, "its count of each perf event")                      \
	X(SR_INTERVALS, SR_ROOT, ROWS, "intervals", "", SCHEMA_OPT, "-I: every interval")                         \
	X(SR_IV_RUN, SR_INTERVALS, INT, "run", "", 0, "the run (from 0)")                                         \
	X(SR_IV_T, SR_INTERVALS, NUMBER, "t_s", "s", 0, "the time at its end")                                    \
	X(SR_IV_EVENTS, SR_INTERVALS, NUMMAP, "events", "", 0, "the count of each perf event in it")             \
	X(SR_COND, SR_ROOT, OBJECT, "conditions", "", SCHEMA_OPT, "the machine around the runs")                 \
	X(SR_COND_STARTED, SR_COND, TEXT, "started", "", 0, "when the runs began (UTC, ISO 8601)")               \
	X(SR_COND_ENDED, SR_COND, TEXT, "ended", "", 0, "when they ended")                                        \
	X(SR_COND_LOAD_BEFORE, SR_COND, NUMBERS, "loadavg_before", "", 0, "load averages (1, 5, 15 min) before")  \
	X(SR_COND_LOAD_AFTER, SR_COND, NUMBERS, "loadavg_after", "", 0, "and after")                              \
	X(SR_COND_CLOCK_BEFORE, SR_COND, NUMBER, "clock_ghz_before", "GHz", 0, "the clock measured before")       \
	X(SR_COND_CLOCK_AFTER, SR_COND, NUMBER, "clock_ghz_after", "GHz", 0, "and after")                         \
	X(SR_COND_CLOCK_METHOD, SR_COND, TEXT, "clock_method", "", 0, "how the clock was measured")               \
	X(SR_COND_MHZ_OS, SR_COND, NUMBER, "cpu_mhz_os", "MHz", 0, "the clock the OS reports")                   \
	X(SR_COND_GOVERNOR, SR_COND, TEXT, "governor", "", SCHEMA_NULL, "the frequency governor (null: none)")   \
	X(SR_COND_CPU_MODEL, SR_COND, TEXT, "cpu_model", "", 0, "the CPU")                                        \
	X(SR_COND_KERNEL, SR_COND, TEXT, "kernel", "", 0, "the kernel's release")                                 \
	X(SR_COND_ARCHSCOPE, SR_COND, TEXT, "archscope", "", 0, "archscope's version")                            \
	X(SR_COND_HOSTNAME, SR_COND, TEXT, "hostname", "", 0, "the host")                                         \
	X(SR_COND_CPUS_ALLOWED, SR_COND, TEXT, "cpus_allowed", "", 0, "the CPUs archscope may run on")            \
	X(SR_COND_CPUS_ONLINE, SR_COND, INT, "cpus_online", "CPUs", 0, "the CPUs online")                        \
	X(SR_FAILED, SR_ROOT, INT, "failed_runs", "", 0, "runs that exited non-zero")                            \
	X(SR_CRASHED, SR_ROOT, INT, "crashed_runs", "", 0, "runs a signal ended")                                 \
	X(SR_INTERRUPTED, SR_ROOT, BOOL, "interrupted", "", 0, "a signal cut the runs short")                     \
	X(SR_SIGNAL_RECEIVED, SR_ROOT, TEXT, "signal_received", "", SCHEMA_NULL, "the signal that ended counting")

SCHEMA_ENUM(SR, STAT_RESULT);
extern const struct schema stat_result;
#define SR_KEY(id) SCHEMA_KEY(stat_result, SR_##id)

#endif
