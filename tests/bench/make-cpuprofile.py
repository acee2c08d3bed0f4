#!/usr/bin/env python3
"""Writes a large V8 .cpuprofile for the benchmarks: a call tree of a few thousand nodes (named
functions of a few scripts, recursion, up to 40 levels deep) and samples of random leaves with
time deltas around 125 us, until the file holds about SIZE_MB megabytes. Deterministic for a
given size (a fixed seed).

  make-cpuprofile.py OUT SIZE_MB"""

import json
import random
import sys


def main():
    out, size_mb = sys.argv[1], float(sys.argv[2])
    rng = random.Random(25)
    nodes = [{"id": 1, "callFrame": {"functionName": "(root)", "scriptId": "0", "url": "",
                                     "lineNumber": -1, "columnNumber": -1}, "children": []}]
    depth = {1: 0}
    for node_id in range(2, 4001):
        parent = rng.randrange(1, node_id)
        if depth[parent] >= 40:
            parent = 1
        depth[node_id] = depth[parent] + 1
        script = rng.randrange(12)
        nodes.append({"id": node_id, "callFrame": {
            "functionName": f"fn{rng.randrange(600)}" if rng.random() > 0.05 else "",
            "scriptId": str(script + 1), "url": f"file:///app/src/module{script}.js",
            "lineNumber": rng.randrange(2000), "columnNumber": rng.randrange(80)},
            "children": []})
        nodes[parent - 1]["children"].append(node_id)
    head = json.dumps({"nodes": nodes, "startTime": 1000000}, separators=(",", ":"))[:-1]
    target = int(size_mb * 1e6) - len(head)
    # Samples and deltas take about the same room: half the rest each.
    samples, deltas = [], []
    size = 0
    leaves = [n["id"] for n in nodes if not n["children"]] + [n["id"] for n in nodes[:200]]
    while size < target:
        s = str(rng.choice(leaves))
        d = str(rng.randrange(100, 150))
        samples.append(s)
        deltas.append(d)
        size += len(s) + len(d) + 2
    end = 1000000 + sum(int(d) for d in deltas)
    with open(out, "w") as f:
        f.write(head)
        f.write(f',"endTime":{end},"samples":[')
        f.write(",".join(samples))
        f.write('],"timeDeltas":[')
        f.write(",".join(deltas))
        f.write("]}")


if __name__ == "__main__":
    main()
