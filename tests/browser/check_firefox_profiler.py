"""The Firefox Profiler (built from its public source by tests/firefox-profiler/build.sh, served
here from 127.0.0.1) opens prof2firefox's output as a user opens a shared profile, from a URL
(/from-url/…), upgrades it to its current version, and shows each thread's inverted call tree:
its roots are the functions with self time, and their running time (or samples) must be
prof-text's self value for that thread, function by function, with no other root.

  check_firefox_profiler.py DIST PROFILE SCREENSHOT_PREFIX INDEX=TOP_TSV...
      DIST: the profiler's built site. INDEX: a thread's index in PROFILE's threads; TOP_TSV:
      prof-text's functions of that thread, "name<TAB>self" a line, in the unit the profile's
      samples weigh (milliseconds for a time, else a count).

The page must log no error; its requests go to the server of this check only."""

import functools
import http.server
import os
import re
import sys
import threading
import time
import urllib.parse

from cdp import Browser, Failure, read_scrolled, run

# The tree's rows that are drawn now: [level, name, running, self, library]; with SCROLL true,
# [those rows, whether scrolling the tree's body by half a page moved it] (the tree draws the
# rows in view).
ROWS = r"""((scroll) => {
  const fixed = [...document.querySelectorAll('.treeViewRowFixedColumns')];
  const scrolled = [...document.querySelectorAll('.treeViewRowScrolledColumns')];
  const text = (row, name) => {
    const cell = row.querySelector('.treeViewFixedColumn.' + name);
    return cell ? cell.textContent.trim() : null;
  };
  const rows = scrolled.map((row, i) => {
    const main = row.querySelector('.treeViewMainColumn');
    const library = row.querySelector('.treeViewAppendageColumn');
    return [+row.getAttribute('aria-level'), main ? main.textContent.trim() : '',
            text(fixed[i], 'total'), text(fixed[i], 'self'),
            library ? library.textContent.trim() : ''];
  });
  if (!scroll) return rows;
  const body = document.querySelector('.treeViewBody');
  let more = false;
  if (body) {
    const before = body.scrollTop;
    body.scrollTop += body.clientHeight / 2;
    more = body.scrollTop > before;
  }
  return [rows, more];
})(%s)"""


def serve(dist, profile):
    """Serves the site (any path that is not a file gives index.html, as the profiler's own
    server does for its routes) and the profile under /data/; returns (server, base URL)."""

    class Handler(http.server.SimpleHTTPRequestHandler):
        def translate_path(self, path):
            path = urllib.parse.urlparse(path).path
            if path == "/data/" + os.path.basename(profile):
                return os.path.abspath(profile)
            local = super().translate_path(path)
            return local if os.path.isfile(local) else os.path.join(dist, "index.html")

        def end_headers(self):
            self.send_header("Access-Control-Allow-Origin", "*")
            super().end_headers()

        def log_message(self, *args):
            pass

    handler = functools.partial(Handler, directory=os.path.abspath(dist))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


def number(text):
    """The tree's "1,234", "2.5", "117ms" as a float and the half unit of its last digit."""
    match = re.match(r"^-?[0-9][0-9,]*(\.[0-9]+)?", text.replace("\u202f", "").replace(" ", ""))
    if not match:
        raise Failure(f"cannot read the value {text!r}")
    digits = match.group(0).replace(",", "")
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    return float(digits), 0.5 * 10 ** -decimals


def read_roots(browser, expected):
    """{function: [self, precision]} of the inverted tree's roots (level 1), every row read. A
    frame without a function is named by its address there, by its library in prof-text
    ("[lib]", "<unknown>" without one): those are summed under prof-text's name."""
    roots, seen = {}, set()

    def take(drawn):
        for level, name, _running, self_text, library in drawn:
            if level != 1 or not name or self_text is None or (name, library) in seen:
                continue
            seen.add((name, library))
            value, precision = number(self_text)
            if re.match(r"^0x[0-9a-f]+$", name) and name not in expected:
                name = f"[{library}]" if library else "<unknown>"
            sums = roots.setdefault(name, [0.0, 0.0])
            sums[0] += value
            sums[1] += precision

    read_scrolled(browser, ROWS, take, "the call tree")
    return roots


def check_thread(browser, base, profile, index, top_tsv, prefix):
    expected = {}
    with open(top_tsv, encoding="utf-8") as tsv:
        for line in tsv:
            name, value = line.rstrip("\n").split("\t")
            if float(value) != 0:
                expected[name] = float(value)
    data = f"{base}/data/{urllib.parse.quote(os.path.basename(profile))}"
    browser.url = (f"{base}/from-url/{urllib.parse.quote(data, safe='')}/calltree/"
                   f"?invertCallstack&thread={index}")
    browser.events.clear()
    browser.call("Page.navigate", {"url": browser.url})
    deadline = time.time() + 60
    while time.time() < deadline:
        if browser.evaluate("document.querySelectorAll('.treeViewRowScrolledColumns').length"):
            break
        browser.pump(0.3)
    else:
        raise Failure(f"thread {index}: no call tree in 60 s")
    browser.pump(0.5)
    got = read_roots(browser, expected)
    browser.screenshot(f"{prefix}-thread-{index}.png")
    errors = []
    for name, value in expected.items():
        if name not in got:
            errors.append(f"{name!r} ({value:g}) is not a root of the inverted tree")
        elif abs(got[name][0] - value) > got[name][1] + 1e-9:
            errors.append(f"{name!r}: {got[name][0]:g} in the profiler, prof-text {value:g}")
    for name in got:
        if name not in expected:
            errors.append(f"{name!r} is a root of the inverted tree, not in prof-text's")
    problems = [p for p in browser.problems()
                if not (p.startswith("network request: ") and p[len("network request: "):].startswith(base))]
    return [f"thread {index}: {e}" for e in errors + problems], len(got)


def main():
    if len(sys.argv) < 5:
        raise Failure("usage: check_firefox_profiler.py DIST PROFILE SCREENSHOT_PREFIX INDEX=TOP_TSV...")
    dist, profile, prefix = sys.argv[1:4]
    server, base = serve(dist, profile)
    browser = Browser(1400, 900)
    try:
        errors, rows = [], 0
        for spec in sys.argv[4:]:
            index, top_tsv = spec.split("=", 1)
            thread_errors, thread_rows = check_thread(browser, base, profile, int(index), top_tsv,
                                                      prefix)
            errors += thread_errors
            rows += thread_rows
    finally:
        browser.close()
        server.shutdown()
    if errors:
        raise Failure(f"{len(errors)} differences: " + "; ".join(errors[:8]))
    print(f"firefox-profiler: {os.path.basename(profile)}: {len(sys.argv) - 4} threads, {rows}"
          " functions' self values equal prof-text's")


if __name__ == "__main__":
    run(main)
