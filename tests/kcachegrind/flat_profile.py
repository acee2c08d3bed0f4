"""Reads what KCachegrind shows of the file it opened, through the accessibility bus (AT-SPI, as
a screen reader reads it): the status bar's total, and every row of the Flat Profile (the
function list: inclusive and self cost in percent of the total, calls, function, location).
Run with Debian's python3 (python3-pyatspi) beside a KCachegrind started with QT_ACCESSIBILITY=1
on the same D-Bus session. Prints

  total<TAB>EVENT<TAB>COST          the status bar's "Total EVENT Cost: COST"
  row<TAB>INCL%<TAB>SELF%<TAB>FUNCTION<TAB>LOCATION    each listed function
  skipped<TAB>N                      the functions KCachegrind did not list ("(N function(s) skipped)")

Usage: flat_profile.py SECONDS (how long to wait for the window and its list). Exit status 2:
no window with a list in time; 1: a window whose text cannot be read."""

import re
import sys
import time

import pyatspi


def find(node, wanted):
    """The first node under `node` (depth first) for which wanted(node) holds, or None."""
    try:
        if wanted(node):
            return node
        children = [node.getChildAtIndex(i) for i in range(node.childCount)]
    except Exception:  # a node that went away while it was read
        return None
    for child in children:
        if child is None:
            continue
        found = find(child, wanted)
        if found is not None:
            return found
    return None


def application():
    for app in pyatspi.Registry.getDesktop(0):
        if app is not None and (app.name or "").lower() == "kcachegrind":
            return app
    return None


def read(app):
    """(status text, header names, cell texts) once the Flat Profile has rows, else None."""
    status = find(app, lambda n: n.getRoleName() == "label" and " Cost: " in (n.name or ""))
    flat = find(app, lambda n: n.getRoleName() == "frame" and n.name == "Flat Profile")
    if status is None or flat is None:
        return None
    # The Flat Profile's function list: the tree whose first column is "Incl.".
    tree = find(flat, lambda n: n.getRoleName() == "tree" and n.childCount > 0
                and n.getChildAtIndex(0).name == "Incl.")
    if tree is None:
        return None
    children = [tree.getChildAtIndex(i) for i in range(tree.childCount)]
    headers = [c.name for c in children if c.getRoleName() == "table column header"]
    cells = [c.name for c in children if c.getRoleName() == "table cell"]
    if not cells:
        return None
    return status.name, headers, cells


def main():
    deadline = time.time() + float(sys.argv[1])
    shown = None
    while time.time() < deadline and shown is None:
        app = application()
        shown = read(app) if app is not None else None
        if shown is None:
            time.sleep(0.2)
    if shown is None:
        # Status 2: nothing shown (session.sh starts KCachegrind again); 1: shown but unreadable.
        print("flat_profile.py: KCachegrind showed no Flat Profile with rows in time",
              file=sys.stderr)
        sys.exit(2)
    status, headers, cells = shown
    # The number is grouped by the locale: "275,510", "275 510" (a narrow space), ...
    match = re.search(r"Total (.*) Cost: ([0-9][0-9.,\s\u00a0\u202f]*)", status)
    if not match:
        sys.exit(f"flat_profile.py: cannot read the status bar {status!r}")
    print(f"total\t{match.group(1)}\t{re.sub(r'[^0-9.]', '', match.group(2))}")
    columns = {name: i for i, name in enumerate(headers)}
    for i in range(0, len(cells) - len(headers) + 1, len(headers)):
        row = cells[i:i + len(headers)]
        function = row[columns["Function"]]
        skipped = re.match(r"^\((\d+) function\(s\) skipped\)$", function)
        if skipped:
            print(f"skipped\t{skipped.group(1)}")
            continue
        print("row\t" + "\t".join([row[columns["Incl."]], row[columns["Self"]], function,
                                   row[columns["Location"]]]))


if __name__ == "__main__":
    main()
