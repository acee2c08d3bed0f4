"""Runs the checks a suite queued, in one headless Chromium: each check is a page of its own in
it, as if the check script had been run alone (`python3 check_NAME.py ARG...`), but without a
start of Chromium and of Python for each (about 2.5 s of CPU each on the test machines).

Usage: run_checks.py LIST. Each line of LIST is a JSON array: the check script's file name, then
its arguments. Prints what each check prints (a failure names the script and its first
argument); the exit status is 1 when any check failed, and every check runs."""

import importlib.util
import json
import os
import sys
import time
import traceback

import cdp


modules = {}  # each check script loaded once, by file name


def load(script):
    if script not in modules:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), script)
        spec = importlib.util.spec_from_file_location(os.path.splitext(script)[0], path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        modules[script] = module
    return modules[script]


def run_one(script, args):
    """True when the check passed."""
    sys.argv = [script] + args
    try:
        load(script).main()
        return True
    except cdp.Failure as failure:
        print(f"{script}: {args[0] if args else ''}: {failure}", file=sys.stderr)
    except SystemExit as exit:
        if not exit.code:
            return True
        print(f"{script}: {args[0] if args else ''}: exit status {exit.code}", file=sys.stderr)
    except Exception:
        print(f"{script}: {args[0] if args else ''}: {traceback.format_exc()}", file=sys.stderr)
    return False


def main():
    with open(sys.argv[1], encoding="utf-8") as listing:
        checks = [json.loads(line) for line in listing if line.strip()]
    failed = 0
    times = []
    cdp.shared_chromium = cdp.Chromium()
    try:
        for script, *args in checks:
            sys.stdout.flush()
            started = time.time()
            if not run_one(script, args):
                failed += 1
            times.append((time.time() - started, f"{script} {os.path.basename(args[0])}"))
            sys.stderr.flush()
    finally:
        cdp.shared_chromium.close()
    slowest = ", ".join(f"{name} ({seconds:.1f}s)" for seconds, name in sorted(times)[::-1][:5])
    print(f"run_checks: {len(checks)} checks in {sum(t for t, _ in times):.0f}s; slowest: {slowest}")
    if failed:
        print(f"run_checks: {failed} of {len(checks)} checks failed", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
