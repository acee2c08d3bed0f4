#!/usr/bin/python3
"""Writes a pstats file (what cProfile's -o writes: marshal of the stats dictionary) of N
functions (default 100,000) with a call graph of about four callers a function, for
bench-pstats.sh. Each function (file, line, name) has (primitive calls, calls, tottime,
cumtime, callers), each caller's entry the same four numbers, as Python's profilers write.

Usage: make-pstats.py OUT N (Debian's python3: a version manager's shim adds its start)"""

import marshal
import random
import sys


def main():
    out, count = sys.argv[1], int(sys.argv[2])
    rng = random.Random(1)
    keys = [(f"/srv/app/pkg{i % 97}/mod{i % 1013}.py", 1 + i % 4000, f"function_{i}")
            for i in range(count)]
    stats = {}
    for i, key in enumerate(keys):
        calls = rng.randint(1, 5000)
        tottime = rng.random() / 100
        callers = {}
        # Callers come before their callees (a DAG, as most programs' call graphs).
        for _ in range(min(i, rng.randint(1, 6))):
            caller = keys[rng.randrange(0, i)]
            n = rng.randint(1, calls)
            callers[caller] = (n, n, tottime * n / calls, tottime * n / calls * 2)
        stats[key] = (calls, calls, tottime, tottime * 2, callers)
    with open(out, "wb") as f:
        marshal.dump(stats, f)


if __name__ == "__main__":
    main()
