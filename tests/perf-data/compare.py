#!/usr/bin/env python3
"""Compares two canonical profiles of one recording, sample by sample: perf2prof's reading of a
perf.data file (OURS) and perf2prof's reading of `perf script --show-mmap-events` of it (PERF).

Each sample must have the same time, values and labels, and the same frames in the same order:
each frame's mapping file and address, and, for frames in the objects named by --names (the
workload, the kernel), the same function (the outermost at the address: perf 6.1 prints inlined
frames for some call chains and not others, and names libc's aliases its own way). What perf's
text cannot say is not held against the reader, and is counted in the line printed:
  - "relative": perf script prints a frame's address relative to its object, and a forked
    process has no mmap records of its own in the text, so perf2prof keeps the relative address
    in a mapping named after the object; and where an object is mapped twice, the text cannot
    say which mapping: such frames are compared by object, offset in it, and function;
  - "unowned": perf 6.1 prints some frames as `(inlined)` without the frame they are inlined into
    (so without their object), and some inlined frames at one address as two frames: consecutive
    equal frames are one, and an object-less frame of perf's is taken for the frame of ours at
    the same place;
  - "long": perf script drops a call chain of more than 127 entries (its limit, markers
    counted) as corrupted and prints the sample without frames; the reader keeps them;
  - "empty": perf prints no frame at all for a --call-graph dwarf sample without a stack copy
    (a thread caught as it starts), where the reader keeps the sampled address;
  - "plt0": the stub before a PLT's first entry (lazy binding's resolver), which no symbol
    covers: perf names it after the symbol before it (`_init`), the reader leaves it unnamed;
  - "ends": perf's libdw unwinder ends some stacks with a frame at address -1 (a return address
    of 0, less one), or with a frame in the `[stack]` mapping (a word of the stack copy taken
    for a return address), where it gave up: that frame is left out, and the reader's stack may
    go on past where perf's stopped (perf's must be the start of it);
  - "resolver": the reader's DWARF unwinding stops in the dynamic loader's lazy-binding resolver
    (_dl_runtime_resolve, which realigns the stack for its xsave area) where perf's goes on to
    the caller: the reader's stack must be the start of perf's and end in ld-linux (a known
    limitation of the reader, docs/perf.md; a sample lands there only while a program binds its
    first calls).

A system-wide recording also holds whatever else ran, whose stacks perf sometimes gives up on
(a frame-pointer chain through code without frame pointers ends in junk addresses, and perf
script then prints the sample without frames): --comms restricts the frames compared to the
samples of these commands (every sample is still held to perf's time, values and labels).

Usage: compare.py --names FILE[,FILE...] [--comms COMM[,COMM...]] OURS PERF [OURS PERF]...
Prints one line per pair; exits 1 when a pair differs.
"""
import shlex
import sys


def parse(path):
    mappings, functions, locations, stacks, samples = {}, {}, {}, {}, []
    types = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            fields = shlex.split(line)
            kind = fields[0]
            if kind == "type":
                types.append(fields[1])
            elif kind == "mapping":
                mappings[fields[1]] = (fields[5], int(fields[2], 16), int(fields[4], 16))
            elif kind == "function":
                functions[fields[1]] = fields[2]
            elif kind == "location":
                lines = [entry.split(":")[0] for entry in fields[5:]]
                locations[fields[1]] = (fields[2], int(fields[3], 16), lines)
            elif kind == "stack":
                stacks[fields[1]] = fields[2:]
            elif kind == "sample":
                values = fields[5:5 + len(types)]
                labels = sorted(fields[5 + len(types):])
                samples.append((fields[3], tuple(values), tuple(labels), fields[2]))
    return mappings, functions, locations, stacks, samples, types


def resolve(profile, named):
    mappings, functions, locations, stacks, samples, types = profile
    out = []
    for time, values, labels, stack in samples:
        frames = []
        for loc in stacks.get(stack, []):
            mapping, address, lines = locations[loc]
            file, start, offset = mappings.get(mapping, ("", 0, 0))
            name = ""
            if any(file.endswith(n) for n in named) and lines:
                name = functions.get(lines[-1], "")
            # The address relative to the object, as perf script prints it (for objects whose
            # code is at the same address and offset in the file, as every object here).
            relative = address - start + offset if start else address
            frames.append((file, address, name, start, relative))
        out.append((time, values, labels, tuple(frames)))
    return types, out


def collapse(frames):
    out = []
    for frame in frames:
        if not out or out[-1] != frame:
            out.append(frame)
    return out


# The differences perf's text explains (see the module's comment), counted by kind.
def same_frame(a, b, counts):
    if a == b:
        return True
    if a[0] == b[0] and a[2] == "" and b[2] == "_init" and a[:2] == b[:2]:
        counts["plt0"] += 1
        return True
    # The same code: perf prints an address relative to its object, which perf2prof's text
    # path must place in a mapping of that object; when the object is mapped twice (node maps
    # its builtins again), or its code lies above its file offset (a non-PIE executable), the
    # text path's choice differs from the address the kernel recorded, not the object or offset.
    if a[0] == b[0] and a[0] != "" and a[2] == b[2] and (b[1] == a[4] or b[4] == a[4]):
        counts["relative"] += 1
        return True
    # (A one-line sample's address is printed absolute: it may be that.)
    if b[3] == 0 and b[0] != "" and a[0] == b[0] and b[1] in (a[4], a[1]) and (
            a[2] == b[2] or (a[2] == "" and b[2] == "_init")):
        counts["relative"] += 1
        return True
    return False


def unowned(frame):
    return frame[0] == "" and frame[1] < 1 << 32


def same_frames(ours, perf, counts):
    if not perf and len(ours) >= 126:
        counts["long"] += 1
        return True
    if not perf and len(ours) == 1:
        counts["empty"] += 1
        return True
    ours, perf = collapse(ours), collapse(perf)
    gave_up = bool(perf) and ((perf[-1][0] == "" and perf[-1][1] == (1 << 64) - 1) or
                              perf[-1][0] == "[stack]")
    if gave_up:
        counts["ends"] += 1
        perf = perf[:-1]
    i = j = 0
    while i < len(ours) and j < len(perf):
        if same_frame(ours[i], perf[j], counts):
            i, j = i + 1, j + 1
        elif unowned(perf[j]):
            counts["unowned"] += 1
            # perf's name for our frame (the same address in the object), or an extra frame of
            # its own (inlined at another address).
            if ours[i][4] == perf[j][1]:
                i, j = i + 1, j + 1
            else:
                j += 1
        else:
            return False
    if i == len(ours) and j < len(perf) and ours and "/ld-linux" in ours[-1][0]:
        counts["resolver"] += 1
        return True
    return (i == len(ours) or gave_up) and j == len(perf)


def main(argv):
    if len(argv) < 5 or argv[1] != "--names":
        print(__doc__, file=sys.stderr)
        return 2
    named = argv[2].split(",")
    first = 3
    comms = None
    if len(argv) > 4 and argv[3] == "--comms":
        comms = ["comm=" + c for c in argv[4].split(",")]
        first = 5
    status = 0
    for i in range(first, len(argv), 2):
        ours_types, ours = resolve(parse(argv[i]), named)
        perf_types, perf = resolve(parse(argv[i + 1]), named)
        problems = []
        counts = {"relative": 0, "unowned": 0, "ends": 0, "long": 0, "plt0": 0, "empty": 0,
                  "resolver": 0}
        if ours_types != perf_types:
            problems.append("types %s != %s" % (ours_types, perf_types))
        if len(ours) != len(perf):
            problems.append("%d samples != %d" % (len(ours), len(perf)))
        differing = [(a, b) for a, b in zip(ours, perf)
                     if a[:3] != b[:3] or ((comms is None or any(c in a[2] for c in comms)) and
                                           not same_frames(a[3], b[3], counts))]
        for a, b in differing[:2]:
            problems.append("sample at %s differs:\n    ours %s\n    perf %s" % (a[0], a, b))
        if problems:
            status = 1
            print("%s: DIFFERS (%d of %d samples): %s" % (argv[i], len(differing), len(ours),
                                                          "; ".join(problems)))
        else:
            print("%s: %d samples equal to perf script's (frames: %d relative, %d unowned, "
                  "%d ends, %d plt0; stacks: %d long, %d empty, %d resolver)" %
                  (argv[i], len(ours), counts["relative"], counts["unowned"], counts["ends"],
                   counts["plt0"], counts["long"], counts["empty"], counts["resolver"]))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
