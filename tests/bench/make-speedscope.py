#!/usr/bin/env python3
"""Writes a large speedscope file for bench-speedscope-read.sh, deterministic (a seeded random):
5,000 shared frames; a sampled profile (stacks 20-60 frames deep over 20,000 distinct stacks,
weights in microseconds) and an evented profile (the same stacks walked as opens and closes at
increasing times), each about half of the bytes.

    make-speedscope.py FILE MEGABYTES"""

import random
import sys


def main():
    path, megabytes = sys.argv[1], float(sys.argv[2])
    rng = random.Random(1)
    frames = 5000
    stacks = [[rng.randrange(frames) for _ in range(rng.randrange(20, 61))]
              for _ in range(20000)]
    budget = int(megabytes * 1e6 / 2)
    with open(path, "w") as out:
        out.write('{"$schema":"https://www.speedscope.app/file-format-schema.json",'
                  '"exporter":"make-speedscope.py","shared":{"frames":[')
        out.write(",".join(f'{{"name":"function_{i}","file":"src/file_{i % 97}.c","line":{i}}}'
                           for i in range(frames)))
        out.write(']},"profiles":[{"type":"sampled","name":"sampled","unit":"microseconds",'
                  '"startValue":0,"endValue":0,"samples":[')
        written, weights, first = 0, [], True
        while written < budget * 0.8:
            stack = stacks[min(int(rng.expovariate(1 / 2000)), len(stacks) - 1)]
            text = ("" if first else ",") + "[" + ",".join(map(str, stack)) + "]"
            out.write(text)
            written += len(text)
            weights.append(rng.randrange(1, 2000))
            first = False
        out.write('],"weights":[' + ",".join(map(str, weights)) + "]},")
        out.write('{"type":"evented","name":"evented","unit":"nanoseconds","startValue":0,'
                  '"endValue":0,"events":[')
        written, at, open_frames, first = 0, 0, [], True
        while written < budget:
            stack = stacks[min(int(rng.expovariate(1 / 2000)), len(stacks) - 1)]
            common = 0
            while (common < len(open_frames) and common < len(stack)
                   and open_frames[common] == stack[common]):
                common += 1
            if common == len(stack) == len(open_frames):
                common -= 1  # the same stack again: its leaf closed and opened again
            events = []
            while len(open_frames) > common:
                events.append(f'{{"type":"C","frame":{open_frames.pop()},"at":{at}}}')
            for frame in stack[common:]:
                events.append(f'{{"type":"O","frame":{frame},"at":{at}}}')
                open_frames.append(frame)
            text = ("" if first else ",") + ",".join(events)
            out.write(text)
            written += len(text)
            first = False
            at += rng.randrange(1000, 2000000)
        out.write("," + ",".join(f'{{"type":"C","frame":{f},"at":{at}}}'
                                 for f in reversed(open_frames)))
        out.write("]}]}\n")


if __name__ == "__main__":
    main()
