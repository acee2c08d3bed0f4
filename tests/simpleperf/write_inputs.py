#!/usr/bin/python3
"""Writes golden/simpleperf/inputs/: files in the format of Android's `simpleperf report-sample
--protobuf` (simpleperf is not a Debian package; the format is cmd_report_sample.proto: the
magic "SIMPLEPERF", a little-endian 16-bit version 1, then Record messages each after its
little-endian 32-bit size, and a size of 0 at the end), with the records in the order
report-sample writes them: meta info, samples and lost situation, then files and threads.

Usage: tests/simpleperf/write_inputs.py DIR"""

import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "perfetto"))
from write_traces import message, packed  # noqa: E402,F401


def record(kind, body):
    data = message((kind, body))
    return struct.pack("<I", len(data)) + data


def entry(vaddr, file_id, symbol_id, execution_type=0):
    return message((1, vaddr), (2, file_id), (3, symbol_id & 0xFFFFFFFFFFFFFFFF), (4, execution_type))


def sample(time, tid, frames, count, event=0):
    return message((1, time), (2, tid), *[(3, f) for f in frames], (4, count), (5, event))


def app():
    """An app recorded with `simpleperf record -e cpu-clock,cpu-cycles -g`: 4 cpu-clock samples
    (250 µs each: 3 in main;compute;hot, 1 in main;io on the worker thread), 2 cpu-cycles samples
    (1,000,000 cycles each, one with a JIT'd Java frame on top), a frame of no symbol (kept as an
    address) and a lost situation of 2 samples of 8."""
    libapp = 0
    libc = 1
    jit = 2
    out = b"SIMPLEPERF" + struct.pack("<H", 1)
    out += record(5, message((1, "cpu-clock"), (1, "cpu-cycles"), (2, "com.example.app")))
    hot = [entry(0x1300, libapp, 2), entry(0x1200, libapp, 1), entry(0x1100, libapp, 0)]
    io = [entry(0x9900, libc, 0), entry(0x1400, libapp, 3), entry(0x1100, libapp, 0)]
    java = [entry(0x40, jit, 0, 2)] + hot[1:]
    unknown = [entry(0x7777, libc, -1)] + hot[1:]
    out += record(1, sample(1_000_250_000, 100, hot, 250_000))
    out += record(1, sample(1_000_500_000, 100, hot, 250_000))
    out += record(1, sample(1_000_750_000, 101, io, 250_000))
    out += record(1, sample(1_001_000_000, 100, unknown, 250_000))
    out += record(1, sample(1_001_100_000, 100, hot, 1_000_000, 1))
    out += record(1, sample(1_001_200_000, 100, java, 1_000_000, 1))
    out += record(2, message((1, 6), (2, 2)))
    out += record(3, message((1, libapp), (2, "/data/app/com.example.app/lib/arm64/libapp.so"),
                             (3, "main"), (3, "compute()"), (3, "hot(int)"), (3, "io"),
                             (4, "main"), (4, "_Z7computev"), (4, "_Z3hoti"), (4, "io")))
    out += record(3, message((1, libc), (2, "/apex/com.android.runtime/lib64/bionic/libc.so"),
                             (3, "read"), (4, "read")))
    out += record(3, message((1, jit), (2, "[JIT app cache]"), (3, "com.example.App.tick")))
    out += record(4, message((1, 100), (2, 100), (3, "example.app")))
    out += record(4, message((1, 101), (2, 100), (3, "worker")))
    out += struct.pack("<I", 0)
    return out


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    good = app()
    files = {
        "report_sample.trace": good,
        "cut.trace": good[:-40],  # cut in the middle of a record
        "version2.trace": b"SIMPLEPERF" + struct.pack("<H", 2) + good[12:],
    }
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
