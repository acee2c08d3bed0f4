#!/usr/bin/env python3
"""Makes the inputs of tests/bench/bench-chrome.sh from the real recordings of golden/chrome,
scaled to a size: `make-chrome.py OUT trace MB` writes a trace as long as MB megabytes from
page.trace.json (Chromium's trace of a page: two renderers' V8 profiles, a worker, the timeline's
events), its events repeated with their times moved on by the recording's span each time, so
that the profiles go on as one long recording (the chunks after the first copy without the
nodes the first defined, the Profile and metadata events once); `make-chrome.py OUT cpuprofile
MB` writes a .cpuprofile from app.cpuprofile (node --cpu-prof) whose samples and timeDeltas
repeat until the file is MB megabytes, as a long run of the same code gives. Arguments after
MB are ignored (bench-chrome.sh passes the recordings' checksums, so that its cache of the
inputs follows them)."""

import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
inputs = os.path.join(here, "..", "..", "golden", "chrome", "inputs")


def dump(value):
    return json.dumps(value, separators=(",", ":"))


def trace(out, target):
    with open(os.path.join(inputs, "page.trace.json")) as f:
        events = json.load(f)["traceEvents"]
    times = [e["ts"] for e in events if isinstance(e.get("ts"), (int, float)) and e.get("ts")]
    span = max(times) - min(times) + 1000
    once = [e for e in events if e.get("ph") == "M" or e.get("name") == "Profile"]
    repeated = [e for e in events if not (e.get("ph") == "M" or e.get("name") == "Profile")]
    later = []  # the repeated events without the nodes the first copy defines
    for e in repeated:
        if e.get("name") == "ProfileChunk":
            e = json.loads(dump(e))
            e["args"]["data"].get("cpuProfile", {}).pop("nodes", None)
        later.append(e)
    with open(out, "w") as f:
        f.write('{"traceEvents":[\n')
        f.write(",\n".join(dump(e) for e in once))
        written, copy = f.tell(), 0
        while written < target:
            lines = []
            for e in (repeated if copy == 0 else later):
                if copy and isinstance(e.get("ts"), (int, float)) and e.get("ts"):
                    e = dict(e)
                    e["ts"] = e["ts"] + copy * span
                lines.append(",\n" + dump(e))
            block = "".join(lines)
            f.write(block)
            written += len(block)
            copy += 1
        f.write("\n]}\n")


def cpuprofile(out, target):
    with open(os.path.join(inputs, "app.cpuprofile")) as f:
        profile = json.load(f)
    samples, deltas = profile["samples"], profile["timeDeltas"]
    span = profile["endTime"] - profile["startTime"]
    rest = {k: v for k, v in profile.items() if k not in ("samples", "timeDeltas", "endTime")}
    per_copy = len(dump(samples)) + len(dump(deltas))
    copies = max(1, target // per_copy)
    with open(out, "w") as f:
        f.write(dump(rest)[:-1])
        f.write(',"samples":[')
        body = ",".join(str(s) for s in samples)
        f.write(",".join([body] * copies))
        f.write('],"timeDeltas":[')
        first = ",".join(str(d) for d in deltas)
        # Each later copy starts a gap as long as the first sample's delta after the one before.
        f.write(",".join([first] * copies))
        f.write('],"endTime":%d}' % (profile["startTime"] + span * copies))


def main():
    out, kind, mb = sys.argv[1], sys.argv[2], int(sys.argv[3])  # more arguments: ignored
    {"trace": trace, "cpuprofile": cpuprofile}[kind](out, mb * 1000000)


if __name__ == "__main__":
    main()
