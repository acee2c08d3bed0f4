#!/usr/bin/env python3
"""Records the files the real speedscope writes, for the speedscope reader's golden cases:
speedscope from npm (tests/web/, `make deps-web`) in headless Chromium (Debian's chromium),
driven over the DevTools protocol (tests/browser/cdp.py), opens a profile as a user does (its
file input), then exports it as a user does (Ctrl+S, its "Export" button: saveToFile in
speedscope's src/lib/file-format.ts, which makes a Blob of JSON.stringify(exportProfileGroup())
and clicks a download link). The Blob is caught where speedscope hands it to
URL.createObjectURL, and written here as it is.

    golden/speedscope/inputs/record-speedscope.py     (from anywhere)

Recorded (speedscope's version in speedscope-version.txt):
  app.speedscope.json      golden/chrome/inputs/app.cpuprofile (node --cpu-prof of app.js)
  perf.speedscope.json.gz  golden/perf/corpus/local/perf61-fp-pidtid.txt.gz, perf 6.1's
                           recording of the project's own load program (several threads:
                           several profiles; gzipped, without a time in its header)
  trace.speedscope.json    golden/chrome/inputs/app.trace.json (node's trace events with V8's
                           samples)
speedscope always exports evented profiles (exportProfile walks each call tree), times in its
profile's unit."""

import gzip
import json
import os
import shutil
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.abspath(os.path.join(here, "..", "..", ".."))
sys.path.insert(0, os.path.join(root, "tests", "browser"))
import cdp  # noqa: E402
from check_speedscope import open_in_speedscope  # noqa: E402

INDEX = os.path.join(root, "tests", "web", "node_modules", "speedscope", "dist", "release",
                     "index.html")
INPUTS = [
    ("app.speedscope.json", os.path.join(root, "golden", "chrome", "inputs", "app.cpuprofile")),
    ("perf.speedscope.json.gz", os.path.join(
        root, "golden", "perf", "corpus", "local", "perf61-fp-pidtid.txt.gz")),
    ("trace.speedscope.json", os.path.join(root, "golden", "chrome", "inputs", "app.trace.json")),
]


def export(browser, path):
    """Opens `path` in speedscope and returns the text of its export."""
    open_in_speedscope(browser, INDEX, path)
    browser.evaluate("""(() => {
      window.__export = null;
      URL.createObjectURL = (blob) => { blob.text().then(t => { window.__export = t; });
                                        return 'about:blank'; };
      HTMLAnchorElement.prototype.click = function () {};
      window.dispatchEvent(new KeyboardEvent('keydown', {key: 's', ctrlKey: true}));
    })()""")
    deadline = time.time() + 60
    while time.time() < deadline:
        text = browser.evaluate("window.__export")
        if text:
            return text
        browser.pump(0.2)
    raise cdp.Failure(f"speedscope exported nothing for {path}")


def main():
    if not os.path.exists(INDEX):
        raise cdp.Failure("no speedscope in tests/web/node_modules: run make deps-web")
    tmp = tempfile.mkdtemp()
    browser = cdp.Browser()
    try:
        for name, source in INPUTS:
            # speedscope reads a file by its content; a gzipped one is given inflated, under its
            # own name without .gz (speedscope sniffs perf script text by its content).
            if source.endswith(".gz"):
                plain = os.path.join(tmp, os.path.basename(source)[:-3])
                with gzip.open(source, "rb") as f, open(plain, "wb") as out:
                    shutil.copyfileobj(f, out)
                source = plain
            text = export(browser, source)
            json.loads(text)  # it is JSON
            data = (text + "\n").encode()
            if name.endswith(".gz"):
                data = gzip.compress(data, 9, mtime=0)
            with open(os.path.join(here, name), "wb") as out:
                out.write(data)
            print(f"{name}: {len(text)} bytes from {os.path.basename(source)}")
        with open(os.path.join(root, "tests", "web", "node_modules", "speedscope",
                               "package.json")) as f:
            version = json.load(f)["version"]
        with open(os.path.join(here, "speedscope-version.txt"), "w") as out:
            out.write(version + "\n")
    finally:
        browser.close()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    cdp.run(main)
