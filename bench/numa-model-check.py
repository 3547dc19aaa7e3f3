#!/usr/bin/env python3
"""Independent check of `archscope numa model`: random 2-, 3- and 4-node matrices the tool has
never seen, random flow sets, and max-min fair sharing over threads computed here by progressive
filling (written without reading the tool's code), plus a check of the max-min property itself.
usage: bench/numa-model-check.py build/archscope tests/fixtures/numa/matrix-2node.json [CASES]"""
import json, random, subprocess, sys, tempfile, os

def maxmin(bw, bw1, flows):
    # threads: (flow index, limit, resources)
    th = []
    for f, (s, d, t) in enumerate(flows):
        res = [('mem', d)] + ([('path', s, d)] if s != d else [])
        for _ in range(t):
            th.append([f, bw1[s][d], res])
    cap = {}
    for f, (s, d, t) in enumerate(flows):
        cap[('mem', d)] = bw[d][d]
        if s != d:
            cap[('path', s, d)] = bw[s][d]
    rate = [0.0] * len(th)
    frozen = [False] * len(th)
    while not all(frozen):
        # the largest equal increment before a thread or a resource is full
        inc = min(th[k][1] - rate[k] for k in range(len(th)) if not frozen[k])
        for r, c in cap.items():
            users = [k for k in range(len(th)) if not frozen[k] and r in th[k][2]]
            if users:
                used = sum(rate[k] for k in range(len(th)) if r in th[k][2])
                inc = min(inc, (c - used) / len(users))
        inc = max(inc, 0.0)
        for k in range(len(th)):
            if not frozen[k]:
                rate[k] += inc
        for k in range(len(th)):
            if not frozen[k] and rate[k] >= th[k][1] - 1e-9:
                frozen[k] = True
        for r, c in cap.items():
            used = sum(rate[k] for k in range(len(th)) if r in th[k][2])
            if used >= c - 1e-9:
                for k in range(len(th)):
                    if r in th[k][2]:
                        frozen[k] = True
    # max-min property: each thread at its limit or on a full resource where it is among the fastest
    for k in range(len(th)):
        if rate[k] >= th[k][1] - 1e-6:
            continue
        ok = False
        for r in th[k][2]:
            used = sum(rate[q] for q in range(len(th)) if r in th[q][2])
            if used >= cap[r] - 1e-6 and rate[k] >= max(rate[q] for q in range(len(th)) if r in th[q][2]) - 1e-6:
                ok = True
        assert ok, "not max-min fair"
    out = [0.0] * len(flows)
    for k in range(len(th)):
        out[th[k][0]] += rate[k]
    return out

def main():
    exe, template = sys.argv[1], json.load(open(sys.argv[2]))
    cases = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    rnd = random.Random(20261123)
    worst = 0.0
    ncmp = 0
    for c in range(cases):
        n = rnd.choice([2, 3, 4])
        local = [rnd.uniform(40, 200) for _ in range(n)]
        bw = [[local[i] if i == j else rnd.uniform(10, 0.8 * min(local[i], local[j])) for j in range(n)] for i in range(n)]
        bw1 = [[rnd.uniform(5, min(30, bw[i][j])) for j in range(n)] for i in range(n)]
        lat = [[rnd.uniform(80, 300) for j in range(n)] for i in range(n)]
        doc = json.loads(json.dumps(template))
        r = doc["results"]
        r["nodes"] = list(range(n)) if not r.get("nodes") or not isinstance(r["nodes"][0], dict) else [dict(r["nodes"][0], node=i) for i in range(n)]
        r["bandwidth_gbs"], r["bandwidth_1thread_gbs"], r["latency_ns"] = bw, bw1, lat
        r["slit"] = [[10 if i == j else 20 for j in range(n)] for i in range(n)]
        flows = [(rnd.randrange(n), rnd.randrange(n), rnd.randint(1, 8)) for _ in range(rnd.randint(1, 5))]
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(doc, f)
            path = f.name
        args = [exe, "numa", "model", "--matrix", path, "--json"]
        for s, d, t in flows:
            args += ["--flow", f"{s}:{d}:{t}"]
        p = subprocess.run(args, capture_output=True, text=True)
        os.unlink(path)
        if p.returncode != 0:
            print(f"case {c}: exit {p.returncode}: {p.stderr.strip()}")
            sys.exit(1)
        got = json.loads(p.stdout)["results"]["flows"]
        want = maxmin(bw, bw1, flows)
        for g, w in zip(got, want):
            err = abs(g["predicted_gbs"] - w) / w
            worst = max(worst, err)
            ncmp += 1
    print(f"{cases} cases, {ncmp} flows compared with independent max-min fair sharing: worst relative difference {100 * worst:.4f} %")
    sys.exit(0 if worst <= 0.01 else 1)

main()
