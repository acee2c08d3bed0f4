"""Compares jfr2prof's canonical text with the JDK's own reader on the same recording.

usage: jfr_compare.py PROF JSON...   (PROF: jfr2prof's output; each JSON: `jfr print --json
--events TYPES` of the recording, for one or more event types)

For each event type: the number of events, their start times (to the nanosecond), the number
of events per stack (frames as
`pkg.Class.method:line`, leaf first, a `<truncated>` root where the JVM cut the stack) and the
sum of durations in nanoseconds must be equal. Prints one line per type; exits 1 on a mismatch.
"""
import calendar
import collections
import json
import re
import shlex
import sys


def iso_nanos(text):
    """java.time.Duration's toString ("PT0.030381419S", "PT1M2S", "PT-0.5S") in nanoseconds."""
    m = re.fullmatch(r"PT(?:(-?\d+)H)?(?:(-?\d+)M)?(?:(-?)(\d+)(?:\.(\d+))?S)?", text)
    if not m:
        raise ValueError("not a duration: " + text)
    hours, minutes, sign, secs, frac = m.groups()
    nanos = int(hours or 0) * 3600 * 10**9 + int(minutes or 0) * 60 * 10**9
    s = int(secs or 0) * 10**9 + int(((frac or "") + "000000000")[:9])
    return nanos + (-s if sign == "-" else s)


def iso_time(text):
    """An instant as jfr prints it ("2026-11-26T15:35:36.705074293Z") in nanoseconds since 1970."""
    m = re.fullmatch(r"(\d+)-(\d+)-(\d+)T(\d+):(\d+):(\d+)(?:\.(\d+))?Z", text)
    if not m:
        raise ValueError("not an instant: " + text)
    y, mo, d, h, mi, sec, frac = m.groups()
    seconds = calendar.timegm((int(y), int(mo), int(d), int(h), int(mi), int(sec)))
    return seconds * 10**9 + int(((frac or "") + "000000000")[:9])


def new_totals():
    return {"count": 0, "stacks": collections.Counter(), "nanos": 0, "times": collections.Counter()}


def theirs(path):
    with open(path) as f:
        events = json.load(f)["recording"]["events"]
    out = {}
    for e in events:
        kind = e["type"]
        t = out.setdefault(kind, new_totals())
        t["count"] += 1
        values = e["values"]
        t["times"][iso_time(values["startTime"])] += 1
        if "duration" in values and values["duration"] is not None:
            t["nanos"] += iso_nanos(values["duration"])
        trace = values.get("stackTrace")
        frames = []
        if trace is not None:
            for fr in trace["frames"]:
                m = fr["method"]
                name = m["type"]["name"].replace("/", ".") + "." + m["name"]
                frames.append("%s:%d" % (name, max(fr["lineNumber"], 0)))
            if trace["truncated"]:
                frames.append("<truncated>:0")
        t["stacks"][tuple(frames)] += 1
    return out


def ours(path):
    functions, locations, stacks = {}, {}, {}
    types = []
    out = {}
    with open(path) as f:
        for line in f:
            words = shlex.split(line)
            if not words:
                continue
            if words[0] == "type":
                types.append(words[1])
            elif words[0] == "function":
                functions[words[1]] = words[2]
            elif words[0] == "location":
                frames = []
                for entry in words[5:]:
                    fn, ln = entry.split(":")[:2]
                    frames.append("%s:%s" % (functions[fn], ln))
                locations[words[1]] = frames
            elif words[0] == "stack":
                stacks[words[1]] = tuple(fr for loc in words[2:] for fr in locations[loc])
            elif words[0] == "sample":
                labels = dict(w.split("=", 1) for w in words[5 + len(types):])
                kind = labels["event"]
                t = out.setdefault(kind, new_totals())
                t["count"] += 1
                t["times"][int(words[3])] += 1
                if words[4] != "-":
                    t["nanos"] += int(words[4])
                t["stacks"][stacks[words[2]] if words[2] != "-" else ()] += 1
    return out


def main():
    mine = ours(sys.argv[1])
    bad = 0
    for path in sys.argv[2:]:
        for kind, t in sorted(theirs(path).items()):
            o = mine.get(kind, new_totals())
            same = ((o["count"], o["nanos"]) == (t["count"], t["nanos"]) and
                    o["stacks"] == t["stacks"] and o["times"] == t["times"])
            print("%s %s: %d events, %d stacks, %d ns (jfr: %d events, %d stacks, %d ns)" % (
                "ok" if same else "FAIL", kind, o["count"], len(o["stacks"]), o["nanos"],
                t["count"], len(t["stacks"]), t["nanos"]))
            if not same:
                bad += 1
                if o["times"] != t["times"]:
                    print("  start times differ, e.g. ours %s, jfr %s" % (
                        sorted(o["times"] - t["times"])[:1], sorted(t["times"] - o["times"])[:1]))
                for s in set(o["stacks"]) | set(t["stacks"]):
                    if o["stacks"][s] != t["stacks"][s]:
                        print("  stack %s: ours %d, jfr %d" % (" <- ".join(s), o["stacks"][s], t["stacks"][s]))
                        break
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
