"""Opens a prof-svg file in headless Chromium and checks that it works as a user would use it:
loads with no console error and no network request; the root frame's value is the profile's total
and the widths of each frame's children add up to at most its own (exactly, when nothing was
left out); hovering shows the details; a click zooms the frame to the full width and Reset Zoom
undoes it; Search (answering the prompt) highlights the matching frames and reports the share
that `prof-text` gives. Writes screenshots.

Usage: check_prof_svg.py SVG TOTAL SEARCH_TERM MATCHED_VALUE SCREENSHOT_PREFIX"""

import sys

from cdp import Browser, Failure, run

# x, y, w in the SVG's coordinates; sx, sy where the frame is on the screen (the SVG is shown at
# the window's width, so the two differ by a scale).
FRAMES = """Array.from(document.querySelectorAll('g.f')).map(g => {
  const r = g.querySelector('rect');
  const box = r.getBoundingClientRect();
  return {v: Number(g.dataset.v), x: Number(r.getAttribute('x')), y: Number(r.getAttribute('y')),
          sx: box.x, sy: box.y,
          w: Number(r.getAttribute('width')), fill: r.getAttribute('fill'),
          name: g.querySelector('title').textContent.split('\\n')[0],
          hidden: g.classList.contains('hide')};
})"""


def check(condition, message):
    if not condition:
        raise Failure(message)


def children_widths(frames, inverted):
    """For each frame, the sum of the widths of the frames in the next row inside its range."""
    rows = {}
    for f in frames:
        rows.setdefault(f["y"], []).append(f)
    step = min((abs(a - b) for a in rows for b in rows if a != b), default=0)
    sums = []
    for f in frames:
        child_y = f["y"] + step if inverted else f["y"] - step
        inside = [c for c in rows.get(child_y, [])
                  if c["x"] >= f["x"] - 0.01 and c["x"] + c["w"] <= f["x"] + f["w"] + 0.01]
        sums.append((f, sum(c["w"] for c in inside), sum(c["v"] for c in inside), len(inside)))
    return sums


def main():
    svg, total, term, matched_value, shots = sys.argv[1:6]
    browser = Browser()
    try:
        seconds = browser.open(svg)
        browser.pump(0.3)
        problems = browser.problems()
        check(not problems, "the page misbehaved: " + "; ".join(problems))
        inverted = browser.evaluate("document.documentElement.dataset.inverted") == "1"
        frames = browser.evaluate(FRAMES)
        check(frames, "no frames drawn")
        root = max(frames, key=lambda f: f["w"])
        check(root["name"] == "all", f"the widest frame is {root['name']!r}, not all")
        check(root["v"] == int(total), f"root value {root['v']} != prof-text's total {total}")
        width = browser.evaluate("Number(document.documentElement.getAttribute('data-width'))")
        check(abs(root["w"] - (width - 20)) < 0.01, f"root width {root['w']} is not the full width")
        # Widths are values times one scale: a frame's children are no wider than it, and their
        # values add up to at most its value (less where a stack ends in it).
        scale = root["w"] / root["v"]
        for f, child_width, child_value, count in children_widths(frames, inverted):
            check(abs(f["w"] - f["v"] * scale) < 0.011, f"{f['name']}: width {f['w']} is not its "
                  f"value {f['v']} scaled")
            check(child_value <= f["v"], f"{f['name']}: children hold {child_value} > {f['v']}")
            check(child_width <= f["w"] + 0.01 * (count + 1), f"{f['name']}: children wider")
        # Shown at the window's width, its height following the viewBox.
        shown = browser.evaluate("(() => { const r = document.documentElement"
                                 ".getBoundingClientRect(); return [r.width, r.height]; })()")
        box = browser.evaluate("(() => { const b = document.documentElement.viewBox.baseVal;"
                               " return [b.width, b.height]; })()")
        check(shown[0] > width * 0.9 and abs(shown[1] / shown[0] - box[1] / box[0]) < 0.01,
              f"the SVG is shown {shown[0]}x{shown[1]}, not at the window's width")
        browser.screenshot(shots + "-full.png")
        browser.screenshot(shots + "-small.png",
                           {"x": 0, "y": 0, "width": shown[0], "height": shown[1], "scale": 0.5})

        # Hover: the details line names the frame.
        target = next(f for f in frames if f["name"] != "all" and f["w"] > 20)
        browser.mouse("mouseMoved", target["sx"] + 2, target["sy"] + 5)
        browser.pump(0.1)
        details = browser.evaluate("document.getElementById('details').textContent")
        check(details.startswith("Function: " + target["name"]),
              f"hovering {target['name']!r} shows {details!r}")

        # Click: the frame fills the width, frames outside it are hidden; Reset Zoom undoes it.
        browser.click(target["sx"] + 2, target["sy"] + 5)
        after = browser.evaluate(FRAMES)
        zoomed = next(f for f in after if f["name"] == target["name"] and f["y"] == target["y"]
                      and not f["hidden"])
        check(abs(zoomed["w"] - (width - 20)) < 0.02, f"after a click {target['name']} is "
              f"{zoomed['w']} wide, not the full width")
        check(browser.evaluate("!document.getElementById('reset').classList.contains('hide')"),
              "Reset Zoom is not shown after a zoom")
        browser.screenshot(shots + "-zoomed.png")
        browser.click_element("document.getElementById('reset')")
        restored = browser.evaluate(FRAMES)
        check([(f["x"], f["w"]) for f in restored] == [(f["x"], f["w"]) for f in frames]
              and not any(f["hidden"] for f in restored), "Reset Zoom did not restore the graph")

        # Search through the prompt, as a user does.
        browser.dialog_answer = term
        browser.click_element("document.getElementById('search')")
        browser.pump(0.2)
        searched = browser.evaluate(FRAMES)
        import re
        expect = [re.search(term, f["name"]) is not None for f in searched]
        check(any(expect), f"no frame matches {term!r}")
        for f, hit in zip(searched, expect):
            check((f["fill"] == "rgb(230,0,230)") == hit, f"{f['name']}: highlight is {f['fill']}")
        got = browser.evaluate("document.getElementById('matched').dataset.matched")
        check(got == matched_value, f"search {term!r} matched {got}, prof-text says {matched_value}")
        browser.screenshot(shots + "-search.png")
        problems = browser.problems()
        check(not problems, "the page misbehaved: " + "; ".join(problems))
        print(f"ok: {svg}: {len(frames)} frames, loaded in {seconds:.2f}s")
    finally:
        browser.close()


if __name__ == "__main__":
    run(main)
