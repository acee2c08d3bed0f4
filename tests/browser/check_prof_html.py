"""Opens a prof-html page in headless Chromium and uses it: no console error or network request;
the self and overall lists equal `prof-text --top` and `--top --sort cum` (text of every cell);
the value-type switcher gives prof-text's list of the other type; the flame graph's root is the
folded total and a click zooms; the search highlights; clicking a frame opens its sequence view,
whose callers and callees each add up to its cumulative value (prof-text's cum); adding a caller
extends the sequence and the back button returns. Writes screenshots.

A drag across the timeline selects bins; the page states the window on the sources' clock
(`--time @Ans..@Bns`), and its total is then `prof-text --time` on that window (with one source
also on the same edges as offsets from its first sample).

Usage: check_prof_html.py HTML TOP_FILE TOP_CUM_FILE OTHER_TYPE OTHER_TOP_FILE FOLDED_TOTAL SHOTS
                          INPUT"""

import re
import subprocess
import sys

from cdp import Browser, Failure, run

# The cells' text; a frame's name is the full one the link carries (its text may be elided).
TABLE = """Array.from(document.querySelectorAll('#%s tr:not(.more)')).slice(1).map(tr =>
  Array.from(tr.children).map(td => td.querySelector('a.frame') && td.querySelector('a.frame')
    .dataset.name !== undefined ? td.querySelector('a.frame').dataset.name : td.textContent))"""

# Every frame link's shown text, full name (data-name) and hover text (title).
LINKS = """Array.from(document.querySelectorAll('#%s a.frame')).map(a =>
  [a.textContent, a.dataset.name === undefined ? a.textContent : a.dataset.name, a.title])"""


# prof-html's options that change the numbers (--diff-base FILE), given to prof-text too.
OPTIONS = []


def check_diff_colours(browser):
    """With --diff-base, every frame (but the root) has a colour of the differential palette
    (red grew, blue shrank, white unchanged) that agrees with its change, which hovering states."""
    if not browser.evaluate("!!JSON.parse(document.getElementById('profile-data').textContent)"
                            ".diff"):
        return ""
    browser.evaluate("location.hash = '#view=flame'")
    browser.pump(0.3)
    frames = browser.evaluate(
        "Array.from(document.querySelectorAll('#flame g.f:not(.merged)')).slice(1).map(g => {"
        "g.dispatchEvent(new MouseEvent('mouseover', {bubbles: true})); return [g.dataset.name, "
        "g.querySelector('rect').getAttribute('fill'), document.getElementById('flame-details')"
        ".textContent]; })")
    grew = shrank = 0
    for name, fill, details in frames:
        r, g, b = (int(x) for x in re.findall(r"\d+", fill))
        change = re.search(r", was .* \(([+-]?)([^)]*)\)", details)
        check(change, f"{name}: hovering does not give the base's value: {details!r}")
        if change.group(2) == "0":
            check((r, g, b) == (255, 255, 255), f"{name}: unchanged but {fill}")
        elif change.group(1) == "+":
            check(r == 255 and g == b and g < 255, f"{name}: grew but {fill}")
            grew += 1
        else:
            check(b == 255 and r == g and r < 255, f"{name}: shrank but {fill}")
            shrank += 1
    return f", differential: {grew} grew, {shrank} shrank"


def check(condition, message):
    if not condition:
        raise Failure(message)


def top_rows(path):
    """prof-text --top's rows: [flat, flat%, sum%, cum, cum%, name]."""
    rows = []
    with open(path, encoding="utf-8") as report:
        lines = report.read().split("\n")
    start = next(i for i, line in enumerate(lines) if line.split() == ["flat", "flat%", "sum%",
                                                                       "cum", "cum%"])
    for line in lines[start + 1:]:
        if line:
            rows.append(line[:45].split() + [line[47:]])
    return rows


def check_formatting(browser):
    """The page's formatValue and formatPercent against the C++ ones (build/test-bin/format-value)
    over values of every scale, for time, byte and plain units."""
    # 2125 and 4250000000: exact ties (2.125, 4.25 of 200 as 2.125%) that printf gives to the
    # even digit.
    values = [0, 1, -1, 5, 999, 1000, 1005, 1499, 1500, 123456, 999999, 1000000, 2500000,
              1073741824, 1610612736, 123456789012, -123456789, 1099511627776 * 3, 2125, -2125,
              4250000000, -4250000000]
    total = 7777777
    ties = browser.evaluate("[4250000000, -4250000000, 1, 3].map(v => "
                            "window.proftoolsReport.formatPercent(v, 200000000000))")
    check(ties == ["2.12%", "-2.12%", "0.00%", "0.00%"], f"ties: {ties}")
    checked = 0
    for unit in ["nanoseconds", "microseconds", "milliseconds", "seconds", "bytes", "kilobytes",
                 "megabytes", "count", "objects"]:
        expected = subprocess.run(["format-value", unit, str(total)] + [str(v) for v in values],
                                  capture_output=True, text=True, check=True).stdout
        got = browser.evaluate(
            f"{values!r}.map(v => v + '\\t' + window.proftoolsReport.formatValue(v, "
            f"{unit!r}) + '\\t' + window.proftoolsReport.formatPercent(v, {total})).join('\\n')")
        check(got + "\n" == expected, f"formatting {unit}: page\n{got}\nC++\n{expected}")
        checked += len(values)
    # A sequence's occurrences: the outermost and innermost start, or none.
    got = browser.evaluate("[[[1,2,1,2,3],[1,2]],[[1,2,3],[2,3]],[[1,2,3],[3,2]],[[4],[4]]]"
                           ".map(c => window.proftoolsReport.occurrences(c[0], c[1]))")
    check(got == [[0, 2], [1, 1], None, [0, 0]], f"occurrences: {got}")
    return checked


def check_long_names(browser):
    """Names longer than a cell (60 characters) are elided in the middle, as the flame graph's
    labels are: a C++ name keeps its end (the function's own name) and loses its template
    arguments first, so that rows of std::_Rb_tree<...> do not read alike; the full name is on
    hover. Returns how many names were elided."""
    links = browser.evaluate(LINKS % "overall") + browser.evaluate(LINKS % "self")
    shown_of = {}
    elided = 0
    for shown, full, title in links:
        check(len(shown) <= 60, f"a name of {len(shown)} characters is shown whole: {shown!r}")
        check(title.split("\n")[0] == full, f"{shown!r}: hovering shows {title!r}, not the name")
        if full != shown:
            elided += 1
            if "::" in full:
                end = full.rsplit("::", 1)[1]
                check(shown.endswith("::" + end),
                      f"{full!r} is shown as {shown!r}, without its end {end!r}")
                check("<..>" in shown or "<" not in full,
                      f"{shown!r}: the template arguments are not elided first")
        shown_of.setdefault(shown, set()).add(full)
    for shown, fulls in shown_of.items():
        check(len(fulls) == 1, f"{len(fulls)} different names are all shown as {shown!r}")
    return elided


def check_first_screen(browser, source):
    """The page is named after the profile (its file); the lists start on the first screen;
    the timeline, when there is one, labels its rows by thread (full name on hover), has a
    time axis with units, and folds away."""
    title = browser.evaluate("[document.title, document.getElementById('title').textContent]")
    check(title == [source, source], f"the page is titled {title}, not after {source!r}")
    # In the page, not the window (the page may have been scrolled).
    where = "document.getElementById('overall').getBoundingClientRect().top + window.scrollY"
    top = browser.evaluate(where)
    height = browser.evaluate("window.innerHeight")
    check(top < height - 100, f"the lists start at y={top}, below the first screen ({height})")
    timeline = browser.evaluate("JSON.parse(document.getElementById('profile-data').textContent)"
                                ".timeline || null")
    if timeline is None:
        return "no timeline"
    labels = browser.evaluate("Array.from(document.querySelectorAll('#timeline .row-label'))"
                              ".map(t => [t.firstChild.nodeValue, t.querySelector('title').textContent])")
    # The rows with some of the shown type, in order (a row with none is not drawn).
    fulls_of_rows = [row[1] for row in timeline["rows"]]
    check(0 < len(labels) <= len(fulls_of_rows), f"{len(labels)} row labels")
    at = 0
    for shown, full in labels:
        check(full in fulls_of_rows[at:], f"row {shown!r}: hovering shows {full!r}, no row's name")
        at = fulls_of_rows.index(full, at) + 1 if full in fulls_of_rows[at:] else at
        check(len(shown) <= 26 and "/" not in shown, f"row label {shown!r}")
    fulls = [full for _, full in labels]
    shown = [label for label, _ in labels]
    check(len(set(shown)) == len(set(fulls)), f"rows read alike: {shown}")
    ticks = browser.evaluate("Array.from(document.querySelectorAll('#timeline-axis text.tick'))"
                             ".map(t => t.textContent)")
    check(len(ticks) >= 2 and ticks[0] == "0s" and
          all(re.fullmatch(r"\d+(\.\d+)?(ns|us|ms|s)", t) for t in ticks),
          f"the time axis is {ticks}")
    browser.evaluate("document.querySelector('#timeline-section summary').click()")
    browser.pump(0.1)
    folded = browser.evaluate(where)
    check(folded < top and not browser.evaluate("document.getElementById('timeline-section').open"),
          "the timeline does not fold away")
    browser.evaluate("document.querySelector('#timeline-section summary').click()")
    browser.pump(0.1)
    return f"{len(labels)} rows ({', '.join(shown[:3])}), axis {' '.join(ticks)}"


def peek_numbers(source, sequences, type_index):
    """prof-text --peek-seq's numbers for each sequence (a list of names), from one run: cum,
    self, and the values of its callers and of its callees, sorted ([root] and [self] among
    them); (0, 0, [], []) for a sequence that has no block (no sample holds it)."""
    arguments = []
    for names in sequences:
        arguments += ["--peek-seq", ";".join(names)]
    run = subprocess.run(["prof-text"] + arguments + ["--raw-values", "--value", str(type_index)]
                         + OPTIONS + [source], capture_output=True, text=True, check=True)
    blocks = {}
    block = side = None
    after_separator = False
    for line in run.stdout.split("\n"):
        fields = line.split()
        if line.startswith("---"):
            after_separator, side = True, None
            continue
        if after_separator and line and not line.startswith(" "):
            # A block's first line: its sequence, marked when a frame of it recurs.
            block = blocks[re.sub(r" +\(recursive\)$", "", line)] = [0, 0, [], []]
            after_separator = False
            continue
        after_separator = False
        if block is None:
            continue
        if len(fields) == 3 and fields[2] in ("cum", "self"):
            block[0 if fields[2] == "cum" else 1] = int(fields[0])
        elif line.startswith("  callers"):
            side = block[2]
        elif line.startswith("  callees"):
            side = block[3]
        elif side is not None and fields:
            side.append(int(fields[0]))
    numbers = {}
    for names in sequences:
        cum, self_value, callers, callees = blocks.get(";".join(names), [0, 0, [], []])
        numbers[";".join(names)] = [cum, self_value, sorted(callers), sorted(callees)]
    return numbers


def check_sequences(browser, source):
    """The sequence view of single frames, and of runs of two and three frames taken from the
    stacks as they are (recursion included), against prof-text --peek-seq: the same cum, self,
    callers and callees (stacks read with directly repeated cycles collapsed). Frames whose
    names --peek-seq would spell otherwise (';', '\\', not printable ASCII) are left out."""
    if "--diff-base" in OPTIONS:
        return "no sequence compared (prof-text --peek-seq takes no --diff-base)"
    data = browser.evaluate("JSON.parse(document.getElementById('profile-data').textContent)")
    names = [f[0] for f in data["frames"]]
    data["stacks"] = [[frames] for frames in
                      browser.evaluate("window.proftoolsReport.stackFrames()")]
    simple = [all(32 <= ord(c) < 127 for c in n) and ";" not in n and "\\" not in n
              for n in names]
    wanted = [[i] for i in range(len(names))][:30]
    for length in (2, 3):
        runs = {}  # the first 20 distinct runs, in the order of the stacks
        for stack in data["stacks"]:
            frames = stack[0]
            for start in range(len(frames) - length + 1):
                runs.setdefault(tuple(frames[start:start + length]), None)
            if len(runs) >= 20:
                break
        wanted += [list(run) for run in runs][:20]
    type_index = data["valueIndex"]
    sequences = [[names[i] for i in ids] for ids in wanted if all(simple[i] for i in ids)]
    # One run of prof-text for them all (--peek-seq given once per sequence): a start of it on
    # the larger pages cost more than the page's own checks.
    expected_numbers = peek_numbers(source, sequences, type_index)
    checked = 0
    for seq in sequences:
        # The page draws in its hashchange listener, registered before this one: once this one
        # runs, the view is drawn (no frame to wait for; 1 s at most, for a hash that is the same).
        browser.evaluate("new Promise(resolve => { setTimeout(resolve, 1000); "
                         "addEventListener('hashchange', resolve, {once: true}); "
                         f"location.hash = '#view=seq&type={type_index}&seq=' + {seq!r}"
                         ".map(n => encodeURIComponent(encodeURIComponent(n))).join(','); })")
        shown = browser.evaluate("document.querySelectorAll('#seq-path a.frame').length")
        check(shown == len(seq), f"sequence {seq}: the page shows {shown} frames")
        got = browser.evaluate(
            "(() => { const v = id => Array.from(document.querySelectorAll(id + ' tr'))"
            ".map(tr => Number(tr.dataset.v)).sort((a, b) => a - b); const d = document."
            "getElementById('seq-values').dataset; return [Number(d.cum), Number(d.self), "
            "v('#seq-callers'), v('#seq-callees')]; })()")
        expected = expected_numbers[";".join(seq)]
        check(got == expected, f"sequence {seq}: page {got}, prof-text --peek-seq {expected}")
        checked += 1
    browser.evaluate("location.hash = '#view=top'")
    browser.pump(0.1)
    return checked


def check_brush(browser, source, shots):
    """Drags across the middle of the timeline; compares the total with prof-text --time."""
    timeline = browser.evaluate("JSON.parse(document.getElementById('profile-data').textContent)"
                                ".timeline || null")
    if timeline is None:
        return "no timeline"
    # The rows scroll past 8: drag across the first, shown at the top of its box.
    box = browser.evaluate("(() => { const c = document.getElementById('timeline-rows'); "
                           "c.scrollTop = 0; c.scrollIntoView({block: 'center'}); const r = document"
                           ".getElementById('timeline').getBoundingClientRect();"
                           " return [r.x, r.y, r.width, Math.min(r.height, c.clientHeight)]; })()")
    label = 160 * box[2] / max(400, box[2])
    x0 = box[0] + label + (box[2] - label) * 0.2
    x1 = box[0] + label + (box[2] - label) * 0.7
    y = box[1] + min(9, box[3] / 2)
    browser.mouse("mouseMoved", x0, y)
    browser.mouse("mousePressed", x0, y)
    for step in range(1, 6):
        browser.mouse("mouseMoved", x0 + (x1 - x0) * step / 5, y)
    browser.mouse("mouseReleased", x1, y)
    browser.pump(0.3)
    match = re.search(r"t=(\d+)-(\d+)", browser.evaluate("location.hash"))
    check(match, "dragging across the timeline selected nothing")
    a, b = int(match.group(1)), int(match.group(2))
    width = timeline["width"]
    origin = int(timeline["origin"])
    # The window the page states, on the sources' clock, which is what it sums: with several
    # sources too. With one source, also as offsets from its first sample.
    command = browser.evaluate("document.getElementById('timeline-note').dataset.time")
    end = f"@{origin + b * width}ns" if b < timeline["bins"] else ""
    check(command == f"--time @{origin + a * width}ns..{end}",
          f"the page states {command!r} for bins {a}..{b}")
    windows = [command.split(" ", 1)[1]]
    sources = browser.evaluate("JSON.parse(document.getElementById('profile-data').textContent)"
                               ".sources.length")
    if sources == 1:
        windows.append(f"{a * width}ns.." + (f"{b * width}ns" if b < timeline["bins"] else ""))
    type_index = browser.evaluate("document.getElementById('type').value")
    got = browser.evaluate("document.getElementById('summary').dataset.total")
    for window in windows:
        run = subprocess.run(["prof-text", "--top", "--no-trim", "--raw-values", "--value",
                              type_index, "--time", window, source], capture_output=True,
                             text=True)
        if run.returncode != 0 and "has no time" in run.stderr:
            browser.evaluate("history.back()")
            return "brush not compared (prof-text --time refuses untimed samples)"
        check(run.returncode == 0, f"prof-text --time {window}: {run.stderr}")
        expected = re.search(r"of (-?\d+) total", run.stdout).group(1)
        check(got == expected,
              f"brushed {window}: the page says {got}, prof-text --time {expected}")
    window = " and ".join(windows)
    browser.screenshot(shots + "-brushed.png")
    browser.evaluate("history.back()")
    browser.pump(0.2)
    return f"brush {window} total {got}"


def main():
    page, top, top_cum, other_type, other_top, folded_total, shots, source = sys.argv[1:9]
    OPTIONS[:] = sys.argv[9:]
    browser = Browser()
    try:
        seconds = browser.open(page)
        browser.pump(0.3)
        problems = browser.problems()
        check(not problems, "the page misbehaved: " + "; ".join(problems))

        # The lists: past 200 rows, a link shows the rest.
        if browser.evaluate("!!document.querySelector('#self tr.more a')"):
            browser.click_element("document.querySelector('#self tr.more a')")
            browser.pump(0.5)
            check("all=1" in browser.evaluate("location.hash"), "show all is not in the URL")
            check(not browser.evaluate("!!document.querySelector('#self tr.more')"),
                  "show all left rows out")
        self_rows = browser.evaluate(TABLE % "self")
        check(self_rows == top_rows(top), f"self list differs from prof-text --top:\n{self_rows}")
        overall = browser.evaluate(TABLE % "overall")
        check(overall == top_rows(top_cum), "overall list differs from prof-text --top --sort cum")
        browser.screenshot(shots + "-lists.png")
        screen = check_first_screen(browser, source)
        elided = check_long_names(browser)

        # The value-type switcher, as a user changes a <select>.
        shown_hash = browser.evaluate("location.hash")
        browser.evaluate(f"(() => {{ const s = document.getElementById('type'); s.value = "
                         f"'{other_type}'; s.dispatchEvent(new Event('change')); }})()")
        browser.pump(0.6)
        check(f"type={other_type}" in browser.evaluate("location.hash"), "type not in the URL")
        check(browser.evaluate(TABLE % "self") == top_rows(other_top),
              "after switching type the self list differs from prof-text --value")
        if browser.evaluate("location.hash") != shown_hash:  # not when it is the type shown
            browser.evaluate("history.back()")
            browser.pump(0.6)
        check(browser.evaluate(TABLE % "self") == self_rows, "back did not restore the type")

        # A click on a frame of the self list opens its sequence view.
        name = self_rows[0][5]
        cum_text = self_rows[0][3]
        browser.click_element("document.querySelector('#self tr:nth-child(2) a')")
        browser.pump(0.2)
        check("view=seq" in browser.evaluate("location.hash"), "a click did not open the sequence")
        cum = int(browser.evaluate("document.getElementById('seq-values').dataset.cum"))
        callers = browser.evaluate("Array.from(document.querySelectorAll('#seq-callers tr'))"
                                   ".reduce((s, tr) => s + Number(tr.dataset.v), 0)")
        callees = browser.evaluate("Array.from(document.querySelectorAll('#seq-callees tr'))"
                                   ".reduce((s, tr) => s + Number(tr.dataset.v), 0)")
        check(callers == cum and callees == cum,
              f"{name}: callers {callers} and callees {callees} do not add up to {cum}")
        shown = browser.evaluate("document.getElementById('seq-values').textContent")
        check(shown.startswith("cumulative " + cum_text), f"{name}: {shown!r}, prof-text {cum_text}")
        browser.screenshot(shots + "-sequence.png")
        # Extend by the first real caller, keeping the context; back returns.
        before = browser.evaluate("location.hash")
        has_caller = browser.evaluate("!!document.querySelector('#seq-callers a')")
        if has_caller:
            browser.click_element("document.querySelector('#seq-callers a')")
            browser.pump(0.2)
            longer = browser.evaluate("document.querySelectorAll('#seq-path a.frame').length")
            check(longer == 2, f"adding a caller gave a sequence of {longer} frames")
            browser.evaluate("history.back()")
            browser.pump(0.2)
            check(browser.evaluate("location.hash") == before, "back did not return")

        # The flame graph: root is the folded total, children fit, a click zooms, search.
        browser.evaluate("location.hash = '#view=flame'")
        browser.pump(0.3)
        # Runs of frames too narrow to draw one by one are one grey rectangle (class merged).
        frames = browser.evaluate("Array.from(document.querySelectorAll('#flame g:not(.merged)'))"
                                  ".map(g => "
                                  "({v: Number(g.dataset.v), name: g.dataset.name, w: Number("
                                  "g.querySelector('rect').getAttribute('width')), y: Number("
                                  "g.querySelector('rect').getAttribute('y'))}))")
        root = frames[0]
        check(root["name"] == "all" and root["v"] == int(folded_total),
              f"flame root {root} is not the folded total {folded_total}")
        scale = root["w"] / root["v"]
        for f in frames:
            check(abs(f["w"] - f["v"] * scale) < 0.011, f"{f['name']}: width is not value")
        browser.screenshot(shots + "-flame.png")
        target = next(f for f in frames[1:] if f["w"] > 30)
        browser.click_element(
            "Array.from(document.querySelectorAll('#flame g')).find(g => g.dataset.name === "
            f"{target['name']!r} && Number(g.dataset.v) === {target['v']}).querySelector('rect')")
        browser.pump(0.2)
        zoomed = browser.evaluate(
            "Array.from(document.querySelectorAll('#flame g:not(.parent)')).map(g => [g.dataset."
            "name, Number(g.querySelector('rect').getAttribute('width'))])[0]")
        full = browser.evaluate("Number(document.querySelector('#flame g').querySelector('rect')"
                                ".getAttribute('width'))")  # the root, full width
        check(zoomed[0] == target["name"] and abs(zoomed[1] - full) < 0.02,
              f"a click did not zoom {target['name']}: {zoomed}, full width {full}")
        check("zoom=" in browser.evaluate("location.hash"), "the zoom is not in the URL")
        # The search, over the whole graph (the frame zoomed into need not hold the name).
        browser.evaluate("location.hash = '#view=flame'")
        browser.pump(0.2)
        browser.evaluate("(() => { const s = document.getElementById('flame-search'); s.value = "
                         f"{name!r}.replace(/[.*+?^${{}}()|[\\]\\\\]/g, '\\\\$&'); "
                         "s.dispatchEvent(new Event('change')); })()")
        browser.pump(0.2)
        highlighted = browser.evaluate(
            "document.querySelectorAll('#flame rect[fill=\"rgb(230,0,230)\"]').length")
        check(highlighted > 0, "search highlighted nothing")
        browser.screenshot(shots + "-flame-search.png")
        diff = check_diff_colours(browser)
        sequences = check_sequences(browser, source)
        formatted = check_formatting(browser)
        brushed = check_brush(browser, source, shots)
        problems = browser.problems()
        check(not problems, "the page misbehaved: " + "; ".join(problems))
        print(f"ok: {page}: {len(self_rows)} rows ({elided} names elided){diff}, "
              f"{sequences} sequences as prof-text's, "
              f"{formatted} values formatted as in C++, timeline {screen}, "
              f"{brushed}, loaded in {seconds:.2f}s")
    finally:
        browser.close()


if __name__ == "__main__":
    run(main)
