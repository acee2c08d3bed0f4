"""Holds the pstats reader to Python's own pstats module (tests/interop-pstats.sh).

Usage: pstats_compare.py STATS DATABASE
STATS is a file cProfile wrote; DATABASE is prof2sqlite's of what proftools read from it. Per
function (file, line, name): the self time (pstats' tottime, to the nanosecond) and, for a
function with callers, the number of calls (pstats' ncalls: every call, recursive ones too)
must be equal. Prints one line per difference and a summary; exits 1 on a difference.
"""
import pstats
import sqlite3
import sys


def main():
    stats = pstats.Stats(sys.argv[1]).stats
    db = sqlite3.connect(sys.argv[2])
    ours = {}
    for name, file, line, type_, value in db.execute(
            "SELECT f.name, f.filename, f.start_line, v.type, SUM(v.value) "
            "FROM stack_values v JOIN stack_self x ON x.stack_id = v.stack_id "
            "JOIN functions f ON f.function_id = x.function_id "
            "GROUP BY f.function_id, v.type"):
        ours.setdefault((file, line, name), {})[type_] = value
    problems = 0
    compared = 0
    for (file, line, name), (cc, nc, tt, ct, callers) in stats.items():
        key = ("", 0, name) if file == "~" else (file, line, name)
        got = ours.get(key, {})
        want_time = round(tt * 1e9)
        if got.get("time", 0) != want_time:
            print(f"{file}:{line}({name}): self time {got.get('time', 0)} ns, pstats {want_time} ns")
            problems += 1
        if callers and got.get("calls", 0) != nc:
            print(f"{file}:{line}({name}): {got.get('calls', 0)} calls, pstats {nc}")
            problems += 1
        compared += 1
    print(f"{compared} functions compared with pstats, {problems} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
