#!/usr/bin/python3
"""Writes golden/android/inputs/: ART method traces (Android's Debug.startMethodTracing, Android
Studio's recordings; no Android runtime runs here), in the regular format (a text summary,
*threads, *methods, *end, then the binary records after "SLOW") and in the streaming one (all
binary, definitions between the records, the summary last), as the format is described by
Android's dmtrace documentation and read by the Firefox Profiler's importer
(src/profile-logic/import/art-trace.js) and Android Studio's VmTraceParser.

The workload, in both (times in microseconds after the trace's start, dual clock: thread CPU
time is half the wall time on main, all of it on worker):
  main (tid 1):   App.run 0-1000 { App.compute 100-800 { App.hot 200-700 }, App.io 800-1000 }
  worker (tid 2): Worker.loop 50-450
so the self wall times are run 100, compute 200, hot 500, io 200, loop 400 us.

Usage: tests/android/write_art_traces.py DIR"""

import os
import struct
import sys

METHODS = [
    (0x1000, "com.example.App", "run", "()V", "App.java", 10),
    (0x1004, "com.example.App", "compute", "()I", "App.java", 20),
    (0x1008, "com.example.App", "hot", "(I)I", "App.java", 30),
    (0x100C, "com.example.App", "io", "()V", "App.java", 40),
    (0x1010, "com.example.Worker", "loop", "()V", "Worker.java", 5),
]
THREADS = [(1, "main"), (2, "worker")]
# (tid, method, action: 0 enter / 1 exit, wall us)
ACTIONS = [
    (1, 0x1000, 0, 0), (2, 0x1010, 0, 50), (1, 0x1004, 0, 100), (1, 0x1008, 0, 200),
    (2, 0x1010, 1, 450), (1, 0x1008, 1, 700), (1, 0x1004, 1, 800), (1, 0x100C, 0, 800),
    (1, 0x100C, 1, 1000), (1, 0x1000, 1, 1000),
]
START_US = 5_000_000
SUMMARY = "*version\n3\ndata-file-overflow=false\nclock=dual\nelapsed-time-usec=1000\n" \
          "num-method-calls=5\nclock-call-overhead-nsec=1000\nvm=art\npid=4242\n"


def method_line(m):
    return "0x%x\t%s\t%s\t%s\t%s\t%d" % m


def record(tid, method, action, wall):
    cpu = wall // 2 if tid == 1 else wall
    return struct.pack("<HIII", tid, method | action, cpu, wall)


def header(version):
    return b"SLOW" + struct.pack("<HHQH", version, 32, START_US, 14).ljust(28, b"\0")


def regular():
    text = SUMMARY + "*threads\n"
    text += "".join("%d\t%s\n" % t for t in THREADS)
    text += "*methods\n" + "".join(method_line(m) + "\n" for m in METHODS) + "*end\n"
    return text.encode() + header(3) + b"".join(record(*a) for a in ACTIONS)


def streaming(extra=()):
    out = header(3 ^ 0xF0)
    for tid, name in THREADS:
        out += struct.pack("<HBHH", 0, 2, tid, len(name)) + name.encode()
    for m in METHODS:
        line = (method_line(m) + "\n").encode()
        out += struct.pack("<HBH", 0, 1, len(line)) + line
    for a in list(ACTIONS) + list(extra):
        out += record(*a)
    summary = (SUMMARY + "*threads\n").encode()
    out += struct.pack("<HBI", 0, 3, len(summary)) + summary
    return out


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    files = {
        "app-regular.trace": regular(),
        "app-streaming.trace": streaming(),
        # After the workload: a method no definition names (entered 1000-1100), and an exit on
        # a thread with nothing entered.
        "app-unknown.trace": streaming([(1, 0x2000, 0, 1000), (1, 0x2000, 1, 1100),
                                        (2, 0x1010, 1, 1200)]),
        "cut.trace": regular()[:-5],
    }
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
