"""speedscope (the npm package, tests/web/) opens a profile in headless Chromium as a user does:
its landing page's file input given the file (DOM.setFileInputFiles, the "Browse" button). The
check fails on an import error (speedscope's alert, a console error, an exception), and compares
its Sandwich view (every function's total and self weight, as the table shows them) with
prof-text's.

  check_speedscope.py check INDEX_HTML PROFILE TOP_TSV SCREENSHOT_PREFIX
      TOP_TSV: prof-text's functions, "name<TAB>flat µs<TAB>cum µs" a line; every function the
      table shows must be there with the same total (cum) and self (flat), to the precision
      speedscope prints (frames without a function, which the reports name otherwise, are not
      compared by name), every function of TOP_TSV must be in the table (a table cut short, or
      a function speedscope lost, fails), and the self weights of all rows must add up to
      prof-text's total.
  check_speedscope.py time INDEX_HTML PROFILE RUNS
      Prints, for each of RUNS loads, the milliseconds from the file input's change event to the
      first frame drawn with the profile, and the CPU seconds every Chromium process used from
      just before the file was given to just after that frame (/proc), tab-separated; then the
      medians."""

import os
import re
import statistics
import sys
import time

from cdp import Browser, Failure, run

UNITS_US = {"ns": 1e-3, "µs": 1.0, "ms": 1e3, "s": 1e6}


def parse_time(text):
    """speedscope's TimeFormatter output ("117.12ms", "1:05") as microseconds, with the
    precision it was printed to."""
    text = text.strip()
    if ":" in text:
        minutes, seconds = text.split(":")
        return (int(minutes) * 60 + int(seconds)) * 1e6, 0.5e6
    for unit in ("ns", "µs", "ms", "s"):
        if text.endswith(unit):
            number = text[: -len(unit)]
            decimals = len(number.split(".")[1]) if "." in number else 0
            return float(number) * UNITS_US[unit], 0.5 * 10 ** -decimals * UNITS_US[unit]
    # A plain number (unit none: RawValueFormatter, toLocaleString's "1,234.5"), compared as
    # prof-text's count.
    number = text.replace(",", "")
    if re.match(r"^-?[0-9]+(\.[0-9]+)?$", number):
        decimals = len(number.split(".")[1]) if "." in number else 0
        return float(number), 0.5 * 10 ** -decimals
    raise Failure(f"cannot read the value {text!r}")


def chromium_cpu_seconds(browser):
    """User + system CPU seconds of the browser and every process under it."""
    ticks = os.sysconf("SC_CLK_TCK")
    children = {}
    stats = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(pid))
        stats[int(pid)] = (int(fields[11]) + int(fields[12])) / ticks
    total, todo = 0.0, [browser.chromium.process.pid]
    while todo:
        pid = todo.pop()
        total += stats.get(pid, 0.0)
        todo.extend(children.get(pid, []))
    return total


def open_in_speedscope(browser, index, profile):
    """Loads speedscope's page, gives its file input `profile`, and waits for the first frame
    drawn after the import; returns the milliseconds from the input's change event to that."""
    browser.open(index)
    browser.call("DOM.enable")
    browser.call("Inspector.enable")
    browser.evaluate("""(() => {
      window.__change = null;
      document.addEventListener('change', () => { window.__change = performance.now(); }, true);
      window.__alerts = [];
      window.alert = (m) => { window.__alerts.push(String(m)); };
    })()""")
    root = browser.call("DOM.getDocument")["root"]["nodeId"]
    node = browser.call("DOM.querySelector", {"nodeId": root, "selector": "input[type=file]"})
    if not node.get("nodeId"):
        raise Failure("speedscope's landing page has no file input")
    browser.cpu_before = chromium_cpu_seconds(browser)
    browser.call("DOM.setFileInputFiles",
                 {"nodeId": node["nodeId"], "files": [os.path.abspath(profile)]})
    # The toolbar's view buttons appear with the profile (not while it loads); then one frame is
    # drawn. Polled in the page (every 5 ms) and read from here: an import can keep the page's
    # thread busy for longer than one protocol call may wait.
    browser.ws.sock.settimeout(300)
    browser.evaluate("""(() => {
      window.__shown = null;
      const poll = () => {
        if (window.__alerts.length) { window.__shown = -1; return; }
        if (document.body.innerText.includes('Time Order') && document.querySelector('canvas')) {
          requestAnimationFrame(() => requestAnimationFrame(() => {
            window.__shown = performance.now() - window.__change; }));
          return;
        }
        setTimeout(poll, 5);
      };
      poll();
    })()""")
    deadline = time.time() + 600
    elapsed = None
    while elapsed is None:
        if time.time() > deadline:
            raise Failure("speedscope showed nothing within 10 minutes")
        browser.pump(0.2)
        for event in browser.events:
            if event.get("method") in ("Inspector.targetCrashed", "Target.targetCrashed"):
                raise Failure("the page crashed importing the profile (out of memory?)")
        elapsed = browser.evaluate("window.__shown")
    alerts = browser.evaluate("window.__alerts")
    if alerts:
        raise Failure("speedscope refused the profile: " + "; ".join(alerts))
    return elapsed


def check(index, profile, top_tsv, prefix):
    expected = {}
    with open(top_tsv) as f:
        for line in f:
            name, flat, cum = line.rstrip("\n").split("\t")
            expected[name] = (float(flat), float(cum))
    # Tall enough that the table draws every row of a small profile (it draws only what shows).
    browser = Browser(width=1400, height=4000)
    try:
        open_in_speedscope(browser, index, profile)
        browser.screenshot(prefix + "-flame.png")
        # Sandwich view: key 3, as a user types it. Its rows are "TOTAL (P%)", "SELF (P%)", name
        # (the profile selector's rows, one per thread, are not).
        browser.evaluate("window.dispatchEvent(new KeyboardEvent('keypress', {key: '3'}))")
        browser.pump(0.5)
        rows = browser.evaluate("""Array.from(document.querySelectorAll('tr'))
          .map(tr => Array.from(tr.querySelectorAll('td')).map(td => td.textContent))
          .filter(cells => cells.length >= 3 && /%\)$/.test(cells[0]))""")
        browser.screenshot(prefix + "-sandwich.png")
        problems = [p for p in browser.problems()
                    if not (p.startswith("network request: file://"))]
        if problems:
            raise Failure("; ".join(problems))
    finally:
        browser.close()
    if not rows:
        raise Failure("the Sandwich view shows no function")
    compared = 0
    self_sum = precision_sum = 0.0
    # Rows by name: speedscope keeps apart frames that prof-text's functions granularity merges
    # (two functions of one name in other files or lines): their self weights add up to
    # prof-text's flat, and each total is at most its cum.
    by_name = {}
    for cells in rows:
        total_text, self_text, name = cells[0], cells[1], cells[-1]
        try:
            total, total_precision = parse_time(total_text.split(" (")[0])
            self_, self_precision = parse_time(self_text.split(" (")[0])
        except Failure as failure:
            raise Failure(f"the row {cells}: {failure}")
        self_sum += self_
        precision_sum += self_precision
        by_name.setdefault(name, []).append((total, total_precision, self_, self_precision,
                                             total_text, self_text))
    for name, found in by_name.items():
        if name not in expected and re.match(r"^(0x[0-9a-f]+|\[.*\])$", name):
            continue  # a frame without a function: prof-text's reports name it otherwise
        if name not in expected:
            raise Failure(f"speedscope shows {name!r}, which prof-text does not")
        flat, cum = expected[name]
        slack = 1e-6 * max(cum, 1.0)
        self_ = sum(row[2] for row in found)
        self_precision = sum(row[3] for row in found)
        texts = "; ".join(f"total {row[4]}, self {row[5]}" for row in found)
        if len(found) == 1:
            total_ok = abs(found[0][0] - cum) <= found[0][1] + slack
        else:
            total_ok = all(row[0] <= cum + row[1] + slack for row in found)
        if not total_ok or abs(self_ - flat) > self_precision + slack:
            raise Failure(f"{name!r}: speedscope {texts}; prof-text cum {cum:g}µs, "
                          f"flat {flat:g}µs")
        compared += 1
    # Every function of prof-text's is in the table (none lost, the table not cut short)...
    # (prof-text's names of frames without a function: an address, [binary], or pprof's
    # "<unknown>" for a frame with no binary either, which speedscope names otherwise.)
    missing = sorted(name for name in expected if name not in by_name
                     and not re.match(r"^(0x[0-9a-f]+|\[.*\]|<unknown>)$", name))
    if missing:
        shown = ", ".join(repr(name) for name in missing[:10])
        raise Failure(f"speedscope shows {compared} functions of {len(expected)}: not {shown}"
                      + (f" and {len(missing) - 10} more" if len(missing) > 10 else "")
                      + f" ({len(rows)} rows drawn)")
    # ...and the self weights of all its rows add up to prof-text's total.
    total = sum(flat for flat, _ in expected.values())
    if abs(self_sum - total) > precision_sum + 1e-6 * total:
        raise Failure(f"speedscope's self weights add up to {self_sum:g}µs, prof-text's total is "
                      f"{total:g}µs")
    print(f"speedscope: {os.path.basename(profile)}: all {compared} functions agree with "
          f"prof-text, total {total:g}µs (the self weights of its rows add up to it)")


def timing(index, profile, runs):
    browser = Browser()
    try:
        results = []
        for _ in range(runs):
            elapsed = open_in_speedscope(browser, index, profile)
            cpu = chromium_cpu_seconds(browser) - browser.cpu_before
            results.append((elapsed, cpu))
            print(f"{elapsed:.0f}\t{cpu:.2f}", flush=True)
        print(f"median\t{statistics.median(r[0] for r in results):.0f} ms\t"
              f"{statistics.median(r[1] for r in results):.2f} s cpu")
    finally:
        browser.close()


def main():
    mode = sys.argv[1]
    if mode == "check":
        check(*sys.argv[2:6])
    elif mode == "time":
        timing(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        raise Failure("mode: check or time")


if __name__ == "__main__":
    run(main)
