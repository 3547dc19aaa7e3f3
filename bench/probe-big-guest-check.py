#!/usr/bin/env python3
"""Functional checks of one guest of bench/probe-big-guest.sh: DIR holds the JSON of each step
(topology, plan, probe, contexts-all, numa, stack) and its status line. Checks what must hold on
any guest of VCPUS vCPUs in 2 sockets of 2 NUMA nodes whose vCPUs share HOST_CPUS host CPUs: the
shapes and ranks of the answers, the placement, the c2c classes against the topology, and that
contexts answers the host's CPUs, not the vCPUs. Prints one line per check and a summary; exits
1 when a check fails.

    python3 bench/probe-big-guest-check.py DIR VCPUS HOST_CPUS
"""
import json
import os
import sys

d, vcpus, host = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
fails = 0


def check(ok, what):
    global fails
    print(f"  {'ok  ' if ok else 'FAIL'} {what}")
    fails += not ok


def load(name):
    p = os.path.join(d, name + ".json")
    st = open(os.path.join(d, name + ".status")).read().strip() if os.path.exists(os.path.join(d, name + ".status")) else "missing"
    try:
        return json.load(open(p))["results"], st
    except Exception as e:
        return None, f"{st} ({type(e).__name__})"


def seconds(st):
    try:
        f = dict(x.split("=") for x in st.split()[1:])
        return float(f["t1"]) - float(f["t0"])
    except Exception:
        return float("nan")


print(f"guest of {vcpus} vCPUs on {host} host CPUs")
topo, st = load("topology")
check(topo is not None and topo["threads"] == vcpus and topo["packages"] == 2 and len(topo["numa_nodes"]) == 4,
      f"topology: {topo and topo['threads']} PUs, {topo and topo['packages']} packages, "
      f"{topo and len(topo['numa_nodes'])} NUMA nodes ({st})")

plan, st = load("plan")
pc = plan and plan["plan"]["c2c"]
if plan:
    p = plan["plan"]
    print(f"  plan: predicted {p['predicted_s']:.1f} s (every pair and team size {p['predicted_all_s']:.1f} s), "
          f"c2c {pc['measured_pairs']} of {pc['pairs']} pairs in {pc['rounds']} rounds, classes "
          + ", ".join(f"{c['name']} ({c['total_pairs']})" for c in pc["classes"]))
names = [c["name"] for c in pc["classes"]] if pc else []
check(any(" d=21" in x for x in names) and any(" d=12" in x for x in names),
      "plan: classes of pairs across the sockets (SLIT 21) and across the nodes of a socket (SLIT 12)")

probe, st = load("probe")
took = seconds(st)
check(probe is not None and " rc=0 " in f" {st} ", f"probe: ran ({st.split()[1] if len(st.split()) > 1 else st}, {took:.0f} s)")
if probe:
    print("  probe: group seconds " + ", ".join(f"{k} {v:.1f}" for k, v in probe["timing_s"].items()))
    lv = probe["caches"]["levels"]
    check(len(lv) >= 1 and all(lv[i]["latency"]["value"] < lv[i + 1]["latency"]["value"] for i in range(len(lv) - 1)),
          "caches: levels with rising latency: " + ", ".join(f"L{x['level']} {x['size']['value'] / 1024:.0f} KiB "
                                                            f"{x['latency']['value']:.1f} ns" for x in lv))
    ctx = probe["contexts"]
    vals = {k: ctx[k]["value"] for k in ("fp", "int", "mem")}
    check(all(ctx[k]["os_reported"] == vcpus for k in vals), f"contexts: os_reported {vcpus} hardware threads")
    # the vCPUs share the host's CPUs: at most that many contexts (fewer when the host is busy)
    check(all(v is not None and 1 <= v <= host for v in vals.values()),
          f"contexts: the trap: fp {vals['fp']}, int {vals['int']}, mem {vals['mem']} contexts "
          f"(at most the host's {host} CPUs, not {vcpus} vCPUs); team sizes "
          + ", ".join(f"{k} {ctx[k]['teams']} ({ctx[k]['shape']})" for k in vals))
    c = probe["c2c"]
    n = len(c["cpus"])
    check(n == vcpus and len(c["bandwidth_gbs"]) == n and all(len(r) == n for r in c["latency_ns"]),
          f"c2c: {n} x {n} matrices")
    pairs = n * (n - 1) // 2
    check(c["mode"] == "classes" and (c["pairs_measured"] < pairs or n <= 4),
          f"c2c: {c['pairs_measured']} of {pairs} pairs measured in {c['rounds']} rounds, {c['steps']} steps")
    planned = {k["name"] for k in pc["classes"]} if pc else set()
    finer = [k for k in c["classes"] if k["level"] > 0]
    check(planned == {k["name"] for k in c["classes"] if k["level"] == 0},
          "c2c: the plan's classes: " + ", ".join(f"{k['name']} ({k['pairs']} pairs, {k['measured']} measured, "
                                                  f"{k['bandwidth_gbs'] or 0:.2f} GB/s, {k['latency_ns'] or 0:.0f} ns"
                                                  f"{', split' if k['split'] else ''}{'' if k['resolved'] else ', unresolved'})"
                                                  for k in c["classes"] if k["level"] == 0)
          + f"; {len(finer)} finer classes ({sum(k['split'] for k in finer)} split again, "
          f"{sum(not k['resolved'] for k in finer)} unresolved)")
    lat = sorted(p["latency_ns"] for p in c["measured_pairs"])
    print(f"  c2c: measured latencies {lat[0]:.0f} .. {lat[-1]:.0f} ns, skipped {c['skipped_blocks']} block sizes, "
          f"step seconds " + ", ".join(f"{x:.0f}" for x in c["step_seconds"]["blocks"]) + f", latency {c['step_seconds']['latency']:.0f}")
    root = c["tree"]["nodes"][0] if c["tree"] else None
    check(root is not None and sorted(root["cpus"]) == sorted(c["cpus"]),
          f"c2c: tree of {c['tree'] and c['tree']['leaves']} leaves over all {n} CPUs")

ca, st = load("contexts-all")
if ca and probe:
    a = ca["contexts"]
    same = all(a[k]["value"] == probe["contexts"][k]["value"] for k in ("fp", "int", "mem"))
    print("  contexts every team size: " + ", ".join(f"{k} {a[k]['value']} in {a[k]['teams']} team sizes "
                                                    f"(search {probe['contexts'][k]['value']} in "
                                                    f"{probe['contexts'][k]['teams']})" for k in ("fp", "int", "mem")))
    check(all(a[k]["value"] is not None and 1 <= a[k]["value"] <= host for k in ("fp", "int", "mem")),
          f"contexts with every team size: at most the host's {host} CPUs too "
          f"({'the same answers as the search' if same else 'not the same answers as the search: a busy host moves them'})")
elif ca:
    a = ca["contexts"]
    check(all(a[k]["value"] is not None and 1 <= a[k]["value"] <= host for k in ("fp", "int", "mem")),
          "contexts with every team size: the trap: " + ", ".join(f"{k} {a[k]['value']} in {a[k]['teams']} team sizes"
                                                                  for k in ("fp", "int", "mem"))
          + f" (at most the host's {host} CPUs, not {vcpus} vCPUs)")
else:
    check(False, f"contexts with every team size ran ({st})")

nm, st = load("numa")
check(nm is not None and nm["node_count"] == 4 and len(nm["latency_ns"]) == 4 and all(len(r) == 4 for r in nm["latency_ns"]),
      f"numa matrix: 4 x 4 ({st})")
if nm:
    print("  numa: SLIT " + str(nm["slit"]) + "; latency ns " + str([[round(x) for x in r] for r in nm["latency_ns"]]))
    check(all(abs(f - 1) < 0.5 for f in sum(nm["placed_fraction"], []) if isinstance(f, (int, float)))
          if isinstance(nm["placed_fraction"][0], list) else True, "numa: memory placed on the nodes asked")

sk, st = load("stack")
check(sk is not None and len(sk["runs"]) >= 3, f"stack: {sk and len(sk['runs'])} thread counts ({st})")
if sk:
    print("  stack: speedup " + ", ".join(f"{r['threads']}: {r['speedup_actual']:.2f}" for r in sk["runs"]
                                          if isinstance(r.get("speedup_actual"), (int, float))))
    top = max(r["speedup_actual"] for r in sk["runs"] if isinstance(r.get("speedup_actual"), (int, float)))
    check(top <= host * 1.3, f"stack: speedup at most about the host's {host} CPUs ({top:.2f})")
print(f"  {fails} failed")
sys.exit(1 if fails else 0)
