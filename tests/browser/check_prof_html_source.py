"""prof-html's source pane (--source-path) opened in headless Chromium: for every function of
the worked example, selected in the sequence view (the state in the URL, as a list's link sets
it), the pane's lines and their flat and cum values are prof-text --list's (--raw-values), for
each value type; a function selected in the flame graph (its zoom) shows the same lines; a
list's row opens its sequence view with the pane; a file not found shows the note; no console
error or network request. Run in the directory the page was made in (the --source-path is
relative). Writes a screenshot.

Usage: check_prof_html_source.py HTML INPUT SHOTS PROF_HTML_OPTIONS..."""

import re
import subprocess
import sys
import urllib.parse

from cdp import Browser, Failure, run

# Each pane table's file and its rows' [line, flat, cum] (gaps left out).
PANE = """Array.from(document.querySelectorAll('#source-files table')).map(t =>
  [t.dataset.file, Array.from(t.querySelectorAll('tr[data-line]')).map(tr =>
    [Number(tr.dataset.line), Number(tr.dataset.flat), Number(tr.dataset.cum)])])"""


def check(condition, message):
    if not condition:
        raise Failure(message)


def list_routines(source, options, type_name):
    """prof-text --list '.' --raw-values: {name: [[file, [[line, flat, cum], ...]], ...]}."""
    out = subprocess.run(["prof-text", "--list", ".", "--raw-values", "--value", type_name] +
                         options + [source], check=True, capture_output=True, text=True).stdout
    routines = {}
    rows = None
    for line in out.splitlines():
        header = re.match(r"ROUTINE =+ (.*) in (.*)$", line)
        if header:
            rows = []
            routines.setdefault(header.group(1), []).append([header.group(2), rows])
            continue
        row = re.match(r"\s*(\S+)\s+(\S+)\s+(\d+):", line)
        if row and rows is not None:
            value = lambda text: 0 if text == "." else int(text)
            rows.append([int(row.group(3)), value(row.group(1)), value(row.group(2))])
    return routines


def fragment(view, key, names, type_index):
    quoted = ",".join(urllib.parse.quote(urllib.parse.quote(n, safe=""), safe="") for n in names)
    return f"#view={view}&type={type_index}&{key}={quoted}"


def main():
    page, source, shots = sys.argv[1:4]
    options = sys.argv[4:]
    browser = Browser()
    try:
        browser.open(page)
        browser.pump(0.3)
        check(browser.evaluate("document.getElementById('source').classList.contains('hide')"),
              "the pane shows with nothing selected")
        types = browser.evaluate(
            "JSON.parse(document.getElementById('profile-data').textContent).types"
            ".map(t => t.type)")
        compared = 0
        for type_index, type_name in enumerate(types):
            routines = list_routines(source, options, type_name)
            check(routines, "prof-text --list listed nothing")
            for name, files in routines.items():
                for view, key in (("seq", "seq"), ("flame", "zoom")):
                    if view == "flame" and type_index > 0:
                        continue
                    browser.evaluate("location.hash = %r" %
                                     fragment(view, key, [name], type_index))
                    browser.pump(0.2)
                    pane = browser.evaluate(PANE)
                    check(pane == files, f"{name} ({view}, {type_name}): the pane shows {pane}, "
                          f"prof-text --list {files}")
                    compared += sum(len(rows) for _, rows in files)
        check(compared > 0, "no line compared")

        # A file not found: the note, and the lines with values still listed.
        browser.evaluate("location.hash = %r" % fragment("seq", "seq",
                                                         ['worker loop; "fast" path'], 0))
        browser.pump(0.2)
        note = browser.evaluate("Array.from(document.querySelectorAll('#source p.missing'))"
                                ".map(p => p.textContent).join(' ')")
        check("could not find file worker.c" in note, f"no note for the missing file: {note!r}")
        browser.screenshot(shots + "-missing.png")

        # From the lists: a row's link opens the sequence view, and the pane with it.
        browser.evaluate("location.hash = '#view=top'")
        browser.pump(0.2)
        browser.click_element("Array.from(document.querySelectorAll('#overall a.frame'))"
                              ".find(a => a.dataset.name === 'compute')")
        browser.pump(0.3)
        shown = browser.evaluate("document.getElementById('source').classList.contains('hide') "
                                 "? '' : document.getElementById('source-name').textContent")
        check(shown == "compute", f"a list's row did not show its source: {shown!r}")
        browser.screenshot(shots + "-pane.png")
        problems = browser.problems()
        check(not problems, "the page misbehaved: " + "; ".join(problems))
        print(f"check_prof_html_source: {page}: {compared} lines equal to prof-text --list's "
              f"over {len(types)} types, the missing file's note, a list's row opens the pane")
    finally:
        browser.close()


if __name__ == "__main__":
    run(main)
