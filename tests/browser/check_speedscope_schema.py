"""prof2speedscope's output against speedscope's published JSON schema
(https://www.speedscope.app/file-format-schema.json, shipped in the npm package as
dist/release/file-format-schema.json), with Debian's python3-jsonschema (Draft 7, as the schema
says), and the rules the schema cannot say that speedscope's importer keeps: one weight per
sample, frame indexes among the shared frames, events in order of `at`, each close the frame on
top, nothing left open.

  check_speedscope_schema.py SCHEMA FILE..."""

import json
import sys

from cdp import Failure, run


def check_rules(path, data):
    frames = len(data["shared"]["frames"])
    for i, profile in enumerate(data["profiles"]):
        where = f"{path}: profiles[{i}]"
        if profile["type"] == "sampled":
            if len(profile["samples"]) != len(profile["weights"]):
                raise Failure(f"{where}: {len(profile['samples'])} samples, "
                              f"{len(profile['weights'])} weights")
            for stack in profile["samples"]:
                if any(not (isinstance(f, int) and 0 <= f < frames) for f in stack):
                    raise Failure(f"{where}: a sample names a frame not among the {frames}")
            if sum(profile["weights"]) != profile["endValue"] - profile["startValue"]:
                raise Failure(f"{where}: the weights do not add up to endValue - startValue")
        else:
            open_frames, last = [], profile["startValue"]
            for event in profile["events"]:
                if not (isinstance(event["frame"], int) and 0 <= event["frame"] < frames):
                    raise Failure(f"{where}: an event names a frame not among the {frames}")
                if event["at"] < last:
                    raise Failure(f"{where}: at goes backwards at {event}")
                last = event["at"]
                if event["type"] == "O":
                    open_frames.append(event["frame"])
                elif not open_frames or open_frames.pop() != event["frame"]:
                    raise Failure(f"{where}: {event} closes a frame that is not on top")
            if open_frames:
                raise Failure(f"{where}: frames left open")
            if last > profile["endValue"]:
                raise Failure(f"{where}: events after endValue")


def main():
    try:
        import jsonschema
    except ImportError:
        raise Failure("no jsonschema module (Debian's python3-jsonschema; make deps-test "
                      "installs it)")
    with open(sys.argv[1]) as f:
        schema = json.load(f)
    validator = jsonschema.Draft7Validator(schema)
    for path in sys.argv[2:]:
        with open(path) as f:
            data = json.load(f)
        errors = sorted(validator.iter_errors(data), key=lambda e: list(e.path))
        if errors:
            raise Failure(f"{path}: {len(errors)} schema errors, the first at "
                          f"{'/'.join(map(str, errors[0].path))}: {errors[0].message}")
        check_rules(path, data)
        kinds = sorted({p["type"] for p in data["profiles"]})
        print(f"schema: {path.split('/')[-1]}: valid ({len(data['profiles'])} profiles: "
              f"{', '.join(kinds)}; {len(data['shared']['frames'])} frames)")


if __name__ == "__main__":
    run(main)
