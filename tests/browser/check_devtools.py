"""Chromium's own DevTools Performance panel (bundled with Debian's chromium, served on its
debugging port) opens prof2chrome's output as a user opens a trace: from a URL, in
devtools/trace_app.html. The check expands the first process track and selects its first thread
(the panel lists processes and threads busiest first), opens the Bottom-up table, and compares
every row with prof-text's for the busiest thread: the same functions, the same self and total
times to the tenth of a millisecond the panel prints. The panel fills its Bottom-up and Call tree
tables only from events that carry a `cat` field; without it they stay empty and this fails.

  check_devtools.py TRACE_JSON TOP_TSV SCREENSHOT_PREFIX
      TOP_TSV: prof-text's functions for that thread, "name<TAB>flat µs<TAB>cum µs" a line; the
      functions whose flat value is above zero are the panel's rows (it lists activities with
      self time), each with its self and total time.

The trace is served from 127.0.0.1 by this script (the panel fetches it; CORS allowed); the
panel's own files come from Chromium's debugging port. Its track headers are drawn on a canvas,
so they are clicked at their place: the rows below the time ruler, one process and its threads."""

import functools
import http.server
import os
import re
import sys
import threading
import time
import urllib.parse

from cdp import Browser, Failure, read_scrolled, run

UNITS_US = {"μs": 1.0, "µs": 1.0, "ms": 1e3, "s": 1e6}

# Every element, through shadow roots: the panel is made of custom elements.
DEEP = r"""var deep = (root, found = []) => {
  for (const el of root.querySelectorAll('*')) {
    found.push(el);
    if (el.shadowRoot) deep(el.shadowRoot, found);
  }
  return found;
};"""

# The Bottom-up grid's rows that are drawn now; with SCROLL true, [those rows, whether scrolling
# its container by half a page moved it] (the grid draws only the rows in view).
ROWS = DEEP + r"""((scroll) => {
  const all = deep(document);
  const rows = all.filter(e => e.tagName === 'TR' && e.classList.contains('data-grid-data-grid-node'))
      .map(tr => [...tr.querySelectorAll('td')].map(td => td.innerText.trim()));
  const scroller = all.find(e => e.classList.contains('data-container') &&
      e.scrollHeight > e.clientHeight);
  if (!scroll) return rows;
  let more = false;
  if (scroller) {
    const before = scroller.scrollTop;
    scroller.scrollTop += scroller.clientHeight / 2;
    more = scroller.scrollTop > before;
  }
  return [rows, more];
})(%s)"""

# The centre of the first visible element whose own text is TEXT, or null.
FIND_TEXT = DEEP + r"""((text) => {
  for (const e of deep(document)) {
    if (e.children.length || e.textContent.trim() !== text) continue;
    const r = e.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) return [r.x + r.width / 2, r.y + r.height / 2];
  }
  return null;
})(%s)"""

# The largest canvas: the flame chart, whose track headers are drawn on it.
FLAME_CHART = DEEP + r"""(() => {
  let best = null, area = 0;
  for (const e of deep(document)) {
    if (e.tagName !== 'CANVAS') continue;
    const r = e.getBoundingClientRect();
    if (r.width * r.height > area) { area = r.width * r.height; best = [r.x, r.y, r.width, r.height]; }
  }
  return best;
})()"""

# The keyboard-shortcuts card the panel opens over the flame chart at first use: its close
# button, if it is there.
CLOSE_CARD = DEEP + r"""(() => {
  for (const e of deep(document)) {
    const label = (e.getAttribute && (e.getAttribute('aria-label') || e.getAttribute('title'))) || '';
    if (e.tagName === 'DEVTOOLS-BUTTON' || e.tagName === 'BUTTON') {
      if (/close/i.test(label) && e.getBoundingClientRect().width > 0) { e.click(); return true; }
    }
  }
  return false;
})()"""


def parse_time(text):
    """The panel's "203.2 ms" (a non-breaking space, maybe thousands separators) as
    microseconds, with the precision it was printed to."""
    match = re.match(r"^([0-9][0-9,]*(?:\.[0-9]+)?)\s*(μs|µs|ms|s)", text.replace("\xa0", " "))
    if not match:
        raise Failure(f"cannot read the time {text!r}")
    number, unit = match.group(1).replace(",", ""), match.group(2)
    decimals = len(number.split(".")[1]) if "." in number else 0
    return float(number) * UNITS_US[unit], 0.5 * 10 ** -decimals * UNITS_US[unit]


def serve(path):
    """Serves the directory of `path` on 127.0.0.1, any origin allowed; returns the file's URL."""

    class Handler(http.server.SimpleHTTPRequestHandler):
        def end_headers(self):
            self.send_header("Access-Control-Allow-Origin", "*")
            super().end_headers()

        def log_message(self, *args):
            pass

    handler = functools.partial(Handler, directory=os.path.dirname(os.path.abspath(path)))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}/{urllib.parse.quote(os.path.basename(path))}"


def slow_click(browser, x, y):
    """A click the flame chart takes: its canvas acts on a press only after the pointer was seen
    over the place (an immediate move-press-release is lost)."""
    browser.mouse("mouseMoved", x, y)
    browser.pump(0.3)
    time.sleep(0.2)
    browser.mouse("mousePressed", x, y)
    browser.mouse("mouseReleased", x, y)
    browser.pump(0.5)


def wait_for(browser, expression, what, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = browser.evaluate(expression)
        if value:
            return value
        browser.pump(0.3)
    raise Failure(f"{what} in {seconds} s")


def read_bottom_up(browser):
    """{activity: (self µs, self precision, total µs, total precision)} of every row."""
    rows = {}

    def take(drawn):
        for cells in drawn:
            if len(cells) >= 3 and cells[2]:
                self_us, self_precision = parse_time(cells[0])
                total_us, total_precision = parse_time(cells[1])
                rows.setdefault(cells[2], (self_us, self_precision, total_us, total_precision))

    read_scrolled(browser, ROWS, take, "the Bottom-up table")
    return rows


def check(trace, top_tsv, prefix):
    expected = {}
    with open(top_tsv, encoding="utf-8") as tsv:
        for line in tsv:
            name, flat, cum = line.rstrip("\n").split("\t")
            if float(flat) > 0:
                expected[name] = (float(flat), float(cum))
    if not expected:
        raise Failure(f"{top_tsv}: no function with self time to compare")
    server, trace_url = serve(trace)
    browser = Browser(1600, 1000)
    try:
        port = browser.chromium.ws.sock.getpeername()[1]
        browser.call("Page.setBypassCSP", {"enabled": True})
        browser.url = (f"http://127.0.0.1:{port}/devtools/trace_app.html?loadTimelineFromURL="
                       + urllib.parse.quote(trace_url, safe=""))
        browser.events.clear()
        browser.call("Page.navigate", {"url": browser.url})
        wait_for(browser, FIND_TEXT % '"Bottom-up"', "the panel showed no Bottom-up tab")
        # The trace is fetched and parsed after the tabs exist: its flame chart has rows then.
        time.sleep(1)
        browser.pump(1)
        browser.evaluate(CLOSE_CARD)
        chart = wait_for(browser, FLAME_CHART, "the panel drew no flame chart")
        # The first track header is the first row under the chart's time ruler (17 px): its
        # triangle expands the process, the row below it is the busiest thread's header.
        left, top = chart[0], chart[1]
        slow_click(browser, left + 8, top + 17 + 9)
        browser.screenshot(prefix + "-expanded.png")
        slow_click(browser, left + 60, top + 17 + 18 + 9)
        tab = wait_for(browser, FIND_TEXT % '"Bottom-up"', "no Bottom-up tab")
        slow_click(browser, tab[0], tab[1])
        wait_for(browser, ROWS % "false" + ".length",
                 "the Bottom-up table stayed empty (is every event's `cat` there?)", 20)
        got = read_bottom_up(browser)
        browser.screenshot(prefix + "-bottom-up.png")
        # The panel's own files come from Chromium's port (not the page's file: network requests
        # are expected); the favicon that port lacks is Chromium's request, not the panel's.
        browser.events = [e for e in browser.events if not e.get("params", {}).get(
            "entry", {}).get("url", "").endswith("/favicon.ico")]
        problems = [p for p in browser.problems() if not p.startswith("network request:")]
        if problems:
            raise Failure("; ".join(problems[:5]))
    finally:
        browser.close()
        server.shutdown()
    errors = []
    for name, (flat, cum) in expected.items():
        if name not in got:
            errors.append(f"{name!r} (self {flat:.0f} µs) is not in the Bottom-up table")
            continue
        self_us, self_precision, total_us, total_precision = got[name]
        # The panel sums its events' own microsecond times: a rounding of each may add up.
        if abs(self_us - flat) > self_precision + 1 or abs(total_us - cum) > total_precision + 1:
            errors.append(f"{name!r}: self {self_us:.0f} µs, total {total_us:.0f} µs in the panel;"
                          f" prof-text: {flat:.0f} µs, {cum:.0f} µs")
    for name in got:
        if name not in expected:
            errors.append(f"{name!r} is in the Bottom-up table, not in prof-text's")
    if errors:
        raise Failure(f"{len(errors)} differences: " + "; ".join(errors[:8]))
    print(f"check_devtools: {os.path.basename(trace)}: {len(got)} Bottom-up rows equal prof-text's")


def main():
    if len(sys.argv) != 4:
        raise Failure("usage: check_devtools.py TRACE_JSON TOP_TSV SCREENSHOT_PREFIX")
    check(*sys.argv[1:])


if __name__ == "__main__":
    run(main)
