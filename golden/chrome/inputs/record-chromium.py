#!/usr/bin/env python3
"""Records page.trace.json, the Chromium trace golden/chrome reads: headless Chromium (Debian's
chromium) opens page.html, a page of known JavaScript functions, while tracing over the DevTools
protocol (tests/browser/cdp.py) with V8's CPU profiler (disabled-by-default-v8.cpu_profiler) and
the timeline's events (devtools.timeline), as DevTools' Performance panel records; the events of
Tracing.dataCollected are written one per line, as DevTools saves a trace, less the kinds of
events that are most of its bytes and that no reader of ours reads when V8 samples are there
(TRIMMED below: headless Chromium's own WebUI renderer loads some 400 resources as it starts).
The page is opened from a temporary copy, as record.sh runs app.js. Traces differ from run to
run: re-recording means `make golden-update` and reading the diff.

    golden/chrome/inputs/record-chromium.py     (from anywhere)"""

import json
import os
import shutil
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "tests", "browser"))
import cdp  # noqa: E402

CATEGORIES = ["disabled-by-default-v8.cpu_profiler", "devtools.timeline", "v8.execute",
              "__metadata"]
TRIMMED = ("ResourceSendRequest", "ResourceReceiveResponse", "ResourceReceivedData",
           "ResourceFinish", "v8.compileModule", "v8.parseOnBackground",
           "v8.parseOnBackgroundParsing", "v8.parseOnBackgroundWaiting",
           "V8.BytecodeBudgetInterrupt")


def main():
    tmp = tempfile.mkdtemp()
    shutil.copy(os.path.join(here, "page.html"), tmp)
    browser = cdp.Browser()
    try:
        page_session = browser.session
        browser.session = None  # tracing is the browser's
        browser.call("Tracing.start", {
            "traceConfig": {"includedCategories": CATEGORIES, "recordMode": "recordUntilFull"},
            "transferMode": "ReportEvents"})
        browser.session = page_session
        browser.open(os.path.join(tmp, "page.html"))
        deadline = time.time() + 60
        while browser.evaluate("window.done === true") is not True:
            if time.time() > deadline:
                raise cdp.Failure("page.html did not finish in 60 s")
            browser.pump(0.1)
        browser.pump(0.3)  # the profiler's last chunks
        browser.session = None
        browser.events.clear()
        browser.send("Tracing.end")
        events = []
        deadline = time.time() + 60
        while True:
            for message in browser.events:
                if message.get("method") == "Tracing.dataCollected":
                    events.extend(message["params"]["value"])
            done = any(m.get("method") == "Tracing.tracingComplete" for m in browser.events)
            browser.events.clear()
            if done:
                break
            if time.time() > deadline:
                raise cdp.Failure("no Tracing.tracingComplete in 60 s")
            browser.pump(0.2)
    finally:
        browser.close()
        shutil.rmtree(tmp, ignore_errors=True)
    kept = [e for e in events if e.get("name") not in TRIMMED]
    with open(os.path.join(here, "page.trace.json"), "w") as out:
        out.write('{"traceEvents":[\n')
        out.write(",\n".join(json.dumps(e, separators=(",", ":")) for e in kept))
        out.write("\n]}\n")
    print(f"page.trace.json: {len(kept)} events of {len(events)} recorded")


if __name__ == "__main__":
    cdp.run(main)
