"""Opens a prof-svg --graph file in headless Chromium and checks that it works as a user would use
it: loads with no console error and no network request; it draws one node group (class="node")
per node the DOT declares (prof-text --dot's output for the same options) and one edge group per
edge, as many call-graph nodes as the legend's "Showing top K nodes" says; hovering a node puts
its Graphviz tooltip under the pointer and marks its edges; a drag moves the drawing by as much as
the pointer moved; the wheel zooms keeping the point under the pointer in place; + zooms and 0
resets. Writes screenshots.

With a prof-html page (PAGE ends in .html) and TYPE, the same checks on its call graph view
showing value type TYPE (an index), and then that the drag did not count as a click on the
node, that a click on N1 opens the sequence view of N1's function, and that the keys leave the
graph alone once another view is shown.

Usage: check_prof_svg_graph.py PAGE DOT SCREENSHOT_PREFIX [TYPE]"""

import re
import sys

from cdp import Browser, Failure, run


def check(condition, message):
    if not condition:
        raise Failure(message)


def dot_counts(path):
    """The nodes (call-graph nodes N1.., label boxes N1_0.., the legend) and edges a DOT declares,
    and K of its legend's "Showing top K nodes out of M" (None without one)."""
    nodes = graph_nodes = edges = 0
    shown = None
    with open(path, encoding="utf-8") as dot:
        for line in dot:
            match = re.search(r"Showing top (\d+) nodes out of", line)
            if match:
                shown = int(match.group(1))
            if re.match(r'^(N\w+|"[^"]*") -> ', line):
                edges += 1
            elif re.match(r'^(subgraph cluster_L \{ )?(N\w+|"([^"\\]|\\.)*") \[', line):
                nodes += 1
                graph_nodes += re.match(r"^N\d+ \[", line) is not None
    return nodes, graph_nodes, edges, shown


# Each node: its Graphviz name (<title>), the centre of its shape on the screen, its edges marked.
NODES = """Array.from(document.querySelectorAll('g.node')).map(g => {
  const shape = g.querySelector('polygon, ellipse, path');
  const box = shape.getBoundingClientRect();
  return {name: g.querySelector('title').textContent, x: box.x + box.width / 2,
          y: box.y + box.height / 2, w: box.width, h: box.height};
})"""
TRANSFORM = """(() => { const m = document.getElementById('viewport').transform.baseVal.consolidate()
  .matrix; return [m.a, m.b, m.c, m.d, m.e, m.f]; })()"""


def node_at(browser, name):
    return next(n for n in browser.evaluate(NODES) if n["name"] == name)


def key(browser, text, code, key_code):
    for kind in ("keyDown", "keyUp"):
        browser.call("Input.dispatchKeyEvent", {"type": kind, "key": text, "code": code,
                                                "text": text if kind == "keyDown" else "",
                                                "windowsVirtualKeyCode": key_code})
    browser.pump(0.1)


def check_html_clicks(browser, shots):
    """prof-html: the drag above was no click; a click on N1 opens its function's sequence view;
    keys go to the graph only while it is shown."""
    check("view=graph" in browser.evaluate("location.hash"), "a drag over N1 left the graph view")
    target = node_at(browser, "N1")
    tooltip = browser.evaluate("""Array.from(document.querySelectorAll('#graph g.node'))
      .find(g => g.querySelector('title').textContent === 'N1').querySelector('a')
      .getAttributeNS('http://www.w3.org/1999/xlink', 'title')""")
    name = re.sub(r" \([^()]*\)$", "", tooltip)
    browser.click(target["x"], target["y"])
    browser.pump(0.2)
    state = browser.evaluate("decodeURIComponent(decodeURIComponent(location.hash))")
    check("view=seq" in state and "seq=" + name in state,
          f"a click on N1 ({name}) opened {state}")
    check(name in browser.evaluate("document.getElementById('seq-path').textContent"),
          f"the sequence view does not show {name}")
    browser.screenshot(shots + "-clicked.png")
    before = browser.evaluate(TRANSFORM)
    key(browser, "+", "Equal", 187)
    check(browser.evaluate(TRANSFORM) == before, "+ zoomed the hidden call graph")
    browser.evaluate("history.back()")
    browser.pump(0.3)
    check(browser.evaluate("document.querySelectorAll('#graph g.node').length") > 0,
          "back from the sequence view: no call graph")


def main():
    svg, dot, shots = sys.argv[1:4]
    html = svg.endswith(".html")
    nodes, graph_nodes, edges, shown = dot_counts(dot)
    browser = Browser()
    try:
        seconds = browser.open(svg)
        browser.pump(0.3)
        if html:
            browser.evaluate(f"location.hash = '#view=graph&type={sys.argv[4]}'")
            browser.pump(0.3)
            browser.evaluate("document.getElementById('graph').scrollIntoView()")
            browser.pump(0.1)
        problems = browser.problems()
        check(not problems, "the page misbehaved: " + "; ".join(problems))
        drawn = browser.evaluate(NODES)
        check(len(drawn) == nodes, f"{len(drawn)} node groups drawn, the DOT declares {nodes}")
        drawn_graph = [n for n in drawn if re.fullmatch(r"N\d+", n["name"])]
        check(len(drawn_graph) == graph_nodes, f"{len(drawn_graph)} graph nodes drawn, the DOT "
              f"declares {graph_nodes}")
        if shown is not None:
            check(len(drawn_graph) == shown, f"{len(drawn_graph)} graph nodes drawn, the legend "
                  f"says {shown}")
        drawn_edges = browser.evaluate("document.querySelectorAll('g.edge').length")
        check(drawn_edges == edges, f"{drawn_edges} edge groups drawn, the DOT declares {edges}")
        browser.screenshot(shots + "-full.png")

        # Hover over N1 (the heaviest node): its tooltip is under the pointer, its edges marked.
        target = node_at(browser, "N1")
        browser.mouse("mouseMoved", target["x"], target["y"])
        browser.pump(0.1)
        tooltip = browser.evaluate(f"""(() => {{
          const e = document.elementFromPoint({target['x']}, {target['y']});
          const a = e && e.closest('a');
          return a ? a.getAttributeNS('http://www.w3.org/1999/xlink', 'title') : null; }})()""")
        check(tooltip and "(" in tooltip, f"hovering N1 shows no tooltip ({tooltip!r})")
        marked = browser.evaluate("document.querySelectorAll('g.edge.marked').length")
        has_edges = edges > 0 and browser.evaluate(
            "Array.from(document.querySelectorAll('g.edge title')).some(t => "
            "t.textContent.split('->').includes('N1'))")
        check(marked > 0 or not has_edges, "hovering N1 marks none of its edges")

        # Drag: the node moves on the screen by as much as the pointer did.
        before = browser.evaluate(TRANSFORM)
        browser.mouse("mousePressed", target["x"], target["y"])
        for step in range(1, 5):
            browser.mouse("mouseMoved", target["x"] + 30 * step, target["y"] + 15 * step)
        browser.mouse("mouseReleased", target["x"] + 120, target["y"] + 60)
        browser.pump(0.1)
        moved = node_at(browser, "N1")
        check(browser.evaluate(TRANSFORM) != before, "a drag did not change the transform")
        check(abs(moved["x"] - target["x"] - 120) < 1.5 and abs(moved["y"] - target["y"] - 60) < 1.5,
              f"a drag of (120, 60) moved N1 by ({moved['x'] - target['x']:.1f}, "
              f"{moved['y'] - target['y']:.1f})")

        # Wheel: zooms in around the pointer, which stays on the same point of the drawing.
        browser.call("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": moved["x"],
                                                  "y": moved["y"], "deltaX": 0, "deltaY": -300})
        browser.pump(0.2)
        zoomed = node_at(browser, "N1")
        scale = browser.evaluate(TRANSFORM)[0]
        check(scale > 1.5, f"the wheel zoomed to {scale}")
        check(zoomed["w"] > moved["w"] * 1.5, f"N1 is {zoomed['w']} wide after zooming in, "
              f"{moved['w']} before")
        check(abs(zoomed["x"] - moved["x"]) < 1.5 and abs(zoomed["y"] - moved["y"]) < 1.5,
              "the point under the pointer moved as the wheel zoomed")
        browser.screenshot(shots + "-zoomed.png")

        # Keys: 0 resets, + zooms in by 1.25.
        key(browser, "0", "Digit0", 48)
        check(browser.evaluate(TRANSFORM) == [1, 0, 0, 1, 0, 0], "0 did not reset the view")
        key(browser, "+", "Equal", 187)
        check(abs(browser.evaluate(TRANSFORM)[0] - 1.25) < 1e-6, "+ did not zoom in")
        key(browser, "0", "Digit0", 48)
        if html:
            check_html_clicks(browser, shots)
        problems = browser.problems()
        check(not problems, "the page misbehaved: " + "; ".join(problems))
        print(f"ok: {svg}: {len(drawn)} nodes, {drawn_edges} edges, loaded in {seconds:.2f}s")
    finally:
        browser.close()


if __name__ == "__main__":
    run(main)
