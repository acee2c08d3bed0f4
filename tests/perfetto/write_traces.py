#!/usr/bin/python3
"""Writes the Perfetto traces of golden/perfetto/inputs that no profiler on Debian records:
Android's perf samples (traced_perf), heapprofd's heap dumps, Chrome's sampling profiler
(StreamingProfilePacket) and track event slices, each written here field by field from
Perfetto's protos (protos/perfetto/trace/: trace_packet, interned_data, profile_common,
profile_packet, track_event, track_descriptor, process_tree), with the sequence-scoped interning
and defaults the SDK and Android use. Also the damaged traces the bad-input cases read.

Usage: tests/perfetto/write_traces.py DIR   (run again to rewrite; the output is deterministic)

What each trace must read as is in its golden case's cmd."""

import os
import struct
import sys
import zlib


def varint(n):
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field(number, value):
    """A field: int -> varint, bytes/str -> length-delimited, list -> each, float -> fixed64."""
    if isinstance(value, list):
        return b"".join(field(number, v) for v in value)
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int):
        return varint(number << 3) + varint(value)
    if isinstance(value, float):
        return varint(number << 3 | 1) + struct.pack("<d", value)
    if isinstance(value, str):
        value = value.encode()
    return varint(number << 3 | 2) + varint(len(value)) + value


def message(*fields):
    return b"".join(field(n, v) for n, v in fields if v is not None)


def packed(values):
    return b"".join(varint(v) for v in values)


def packet(*fields):
    return field(1, message(*fields))


# TracePacket fields.
TIMESTAMP, SEQ, TRACK_EVENT, INTERNED, FLAGS = 8, 10, 11, 12, 13
PROCESS_TREE, PROFILE_PACKET, STREAMING, DEFAULTS, TRACK_DESCRIPTOR = 2, 37, 54, 59, 60
PERF_SAMPLE, DROPPED, COMPRESSED = 66, 42, 50
CLEARED, NEEDS = 1, 2


def interned(function_names=(), frames=(), callstacks=(), mappings=(), mapping_paths=(),
             build_ids=(), source_paths=(), event_names=()):
    fields = []
    fields += [(2, message((1, i), (2, s))) for i, s in event_names]
    fields += [(5, message((1, i), (2, s))) for i, s in function_names]
    fields += [(6, message(*f)) for f in frames]
    fields += [(7, message((1, i), (2, packed(ids)))) for i, ids in callstacks]
    fields += [(16, message((1, i), (2, s))) for i, s in build_ids]
    fields += [(17, message((1, i), (2, s))) for i, s in mapping_paths]
    fields += [(18, message((1, i), (2, s))) for i, s in source_paths]
    fields += [(19, message(*m)) for m in mappings]
    return message(*fields)


def frame(iid, name_id, mapping=None, rel_pc=None, source=None, line=None):
    return ((1, iid), (2, name_id), (3, mapping), (4, rel_pc), (5, source), (6, line))


def process_tree(processes, threads):
    return message(*([(1, message((1, pid), (3, cmdline))) for pid, cmdline in processes] +
                     [(2, message((1, tid), (3, tgid), (2, name))) for tid, tgid, name in threads]))


def perf_samples():
    """traced_perf on Android: a native app's samples, 3 of main;work;leaf, 1 of main;other,
    a kernel frame on one; a lost-records packet; process and thread names from the process
    tree; a mapping with its build id (binary, as Android writes it) and path parts."""
    seq = 7
    names = [(1, "main"), (2, "work"), (3, "leaf"), (4, "other"), (5, "do_syscall_64")]
    mappings = [((1, 1), (2, 1), (3, 0), (4, 0x5000), (5, 0x9000), (8, 0x1000), (7, packed([1, 2, 3]))),
                ((1, 2), (4, 0xffffffff81000000), (5, 0xffffffff82000000), (7, packed([4])))]
    frames = [frame(1, 1, 1, 0x1100, 1, 10), frame(2, 2, 1, 0x1200, 1, 20),
              frame(3, 3, 1, 0x1300, 1, 30), frame(4, 4, 1, 0x1400, 1, 40),
              frame(5, 5, 2, 0x100)]
    out = packet((TIMESTAMP, 1_000_000), (PROCESS_TREE, process_tree(
        [(1234, "/system/bin/app_process64"), (99, "/bin/init")],
        [(1234, 1234, "app-main"), (1240, 1234, "worker")])))
    out += packet((TIMESTAMP, 1_000_000), (SEQ, seq), (FLAGS, CLEARED | NEEDS),
                  (INTERNED, interned(
                      function_names=names, frames=frames,
                      callstacks=[(1, [1, 2, 3]), (2, [1, 4]), (3, [1, 2, 3, 5])],
                      mappings=mappings,
                      mapping_paths=[(1, "data"), (2, "app"), (3, "libnative.so"), (4, "[kernel.kallsyms]")],
                      build_ids=[(1, bytes.fromhex("00112233445566778899aabbccddeeff01020304"))],
                      source_paths=[(1, "src/native.cc")])))
    times = [2_000_000, 3_000_000, 4_000_000, 5_000_000, 6_000_000]
    stacks = [1, 1, 2, 3, 1]
    tids = [1234, 1234, 1240, 1234, 1240]
    for t, s, tid in zip(times, stacks, tids):
        out += packet((TIMESTAMP, t), (SEQ, seq), (FLAGS, NEEDS), (PERF_SAMPLE, message(
            (1, tid % 4), (2, 1234), (3, tid), (4, s), (5, 2))))
    out += packet((TIMESTAMP, 7_000_000), (SEQ, seq), (FLAGS, NEEDS),
                  (PERF_SAMPLE, message((1, 0), (17, 12))))
    return out


def heapprofd():
    """heapprofd (Android 11 and later: tables in InternedData): two dumps of process 4321,
    the second (the one read) split over two packets by `continued`; 4096 bytes live at
    main;alloc_big (8192 allocated, 4096 freed, 2 allocations, 1 free) and 100 at
    main;alloc_small."""
    seq = 3
    out = packet((TIMESTAMP, 10), (SEQ, seq), (FLAGS, CLEARED | NEEDS), (INTERNED, interned(
        function_names=[(1, "main"), (2, "alloc_big"), (3, "alloc_small"), (4, "malloc")],
        frames=[frame(1, 1), frame(2, 2), frame(3, 3), frame(4, 4)],
        callstacks=[(1, [1, 2, 4]), (2, [1, 3, 4])])))

    def sample(callstack, allocated, freed, allocs, frees):
        return message((1, callstack), (2, allocated), (3, freed), (5, allocs), (6, frees))

    def dump(index, samples, continued):
        return packet((TIMESTAMP, 20 + index), (SEQ, seq), (FLAGS, NEEDS), (PROFILE_PACKET, message(
            (5, message((1, 4321), (2, samples))), (6, continued), (7, index))))

    out += dump(0, [sample(1, 4096, 0, 1, 0)], False)
    out += dump(1, [sample(1, 8192, 4096, 2, 1)], True)
    out += dump(2, [sample(2, 100, 0, 1, 0)], False)
    return out


def streaming():
    """Chrome's sampling profiler: a thread track (pid 50, tid 51, "CrBrowserMain") made the
    sequence's default; 4 samples in one packet at 100, 150, 250 and 300 µs after the packet's
    time (deltas 100, 50, 100, 50); a later packet after a reset re-interns the names."""
    seq = 9
    out = packet((TRACK_DESCRIPTOR, message((1, 77), (4, message((1, 50), (2, 51), (5, "CrBrowserMain"))))))
    out += packet((TRACK_DESCRIPTOR, message((1, 76), (3, message((1, 50), (6, "Browser"))))))
    tables = interned(function_names=[(1, "RunLoop::Run"), (2, "Task"), (3, "Paint")],
                      frames=[frame(1, 1), frame(2, 2), frame(3, 3)],
                      callstacks=[(1, [1, 2]), (2, [1, 2, 3])])
    out += packet((TIMESTAMP, 1_000_000_000), (SEQ, seq), (FLAGS, CLEARED | NEEDS),
                  (DEFAULTS, message((11, message((11, 77))))), (INTERNED, tables))
    out += packet((TIMESTAMP, 1_000_000_000), (SEQ, seq), (FLAGS, NEEDS), (STREAMING, message(
        (1, packed([1, 2, 2, 1])), (2, packed([100, 50, 100, 50])))))
    # The ring buffer lost packets: until the next reset, packets needing state are skipped.
    out += packet((TIMESTAMP, 1_000_400_000), (SEQ, seq), (FLAGS, NEEDS), (DROPPED, True),
                  (STREAMING, message((1, packed([1])), (2, packed([10])))))
    out += packet((TIMESTAMP, 1_001_000_000), (SEQ, seq), (FLAGS, CLEARED | NEEDS),
                  (DEFAULTS, message((11, message((11, 77))))), (INTERNED, tables))
    out += packet((TIMESTAMP, 1_001_000_000), (SEQ, seq), (FLAGS, NEEDS), (STREAMING, message(
        (1, packed([2, 9])), (2, packed([20, 20])))))  # 9: a callstack never defined
    return out


def slices():
    """Track events (the SDK's TRACE_EVENT): on thread track 5 (pid 10, tid 11, "main"),
    frame 0-1000 ns containing layout 100-400 and paint 500-900 (an instant at 600 inside);
    on track 6 (tid 12) a slice never ended; names interned and inline; one END too many."""
    seq = 4
    out = packet((TRACK_DESCRIPTOR, message((1, 5), (4, message((1, 10), (2, 11), (5, "main"))))))
    out += packet((TRACK_DESCRIPTOR, message((1, 6), (4, message((1, 10), (2, 12), (5, "io"))))))
    out += packet((TIMESTAMP, 0), (SEQ, seq), (FLAGS, CLEARED | NEEDS),
                  (DEFAULTS, message((11, message((11, 5))))),
                  (INTERNED, interned(event_names=[(1, "frame"), (2, "layout")])))

    def event(t, type_, name_iid=None, name=None, track=None):
        return packet((TIMESTAMP, t), (SEQ, seq), (FLAGS, NEEDS), (TRACK_EVENT, message(
            (9, type_), (10, name_iid), (23, name), (11, track))))

    out += event(0, 1, name_iid=1)
    out += event(100, 1, name_iid=2)
    out += event(400, 2)
    out += event(500, 1, name="paint")
    out += event(600, 3, name="vsync")
    out += event(900, 2)
    out += event(1000, 2)
    out += event(1100, 2)  # nothing open
    out += event(200, 1, name="read", track=6)  # never ended
    return out


def compressed():
    """The perf samples trace again, its packets in two compressed_packets fields (zlib), as
    traced writes them with compression enabled."""
    raw = perf_samples()
    # The packets' boundaries (each is field 1: a tag byte, a varint length, the packet).
    i, bounds = 0, []
    while i < len(raw):
        j, n, shift = i + 1, 0, 0
        while True:
            n |= (raw[j] & 0x7F) << shift
            shift += 7
            j += 1
            if raw[j - 1] < 0x80:
                break
        bounds.append(i)
        i = j + n
    cut = bounds[len(bounds) // 2]
    return (packet((COMPRESSED, zlib.compress(raw[:cut], 9))) +
            packet((COMPRESSED, zlib.compress(raw[cut:], 9))))


def damaged():
    good = slices()
    return {
        # A packet whose timestamp is a varint of 11 bytes.
        "bad-varint.pftrace": good + b"\x0a\x0c\x40" + b"\xff" * 10 + b"\x01",
        # The last packet claims 1000 bytes more than there are.
        "bad-length.pftrace": good + b"\x0a\xe8\x07" + b"\x40\x01",
        # Compressed packets that do not inflate.
        "bad-compressed.pftrace": packet((COMPRESSED, b"\x78\x9cnot deflate at all")),
    }


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    traces = {
        "android-perf.pftrace": perf_samples(),
        "heapprofd.pftrace": heapprofd(),
        "chrome-streaming.pftrace": streaming(),
        "sdk-slices.pftrace": slices(),
        "compressed.pftrace": compressed(),
    }
    traces.update(damaged())
    for name, data in traces.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
