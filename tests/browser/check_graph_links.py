"""Clicks everything in a call graph drawn from a hostile profile and checks that no script of the
profile's runs (issue 47, item 1): the page is prof-svg --graph's, or prof-html's call graph view
(PAGE ends in .html, with TYPE, the value type's index). The profile's unit holds quotes and a
javascript: URL (golden/security/unit-in-call-graph/hostile-unit.prof): written into DOT
unescaped, it gave every node a link that one click ran.

Checks: the drawing holds no <a> with href or xlink:href; a click on the centre of every node and
every edge label (prof-html: from the graph view each time) opens no dialog, leaves the page's
file: URL, sends no request, logs no error (a javascript: URL the page's policy blocked would);
and the page still works after (its nodes are still drawn).

Usage: check_graph_links.py PAGE [TYPE]"""

import json
import sys

from cdp import Browser, Failure, run


def check(condition, message):
    if not condition:
        raise Failure(message)


# The drawing's nodes and edges, each by its Graphviz name (<title>).
NAMES = """Array.from(document.querySelectorAll('g.node, g.edge'))
  .map(g => g.querySelector('title').textContent)"""
# The centre of the text (or shape) of the one named %s, scrolled into view, and whether a click
# there lands on it.
AIM = """(() => {
  const g = Array.from(document.querySelectorAll('g.node, g.edge'))
    .find(g => g.querySelector('title').textContent === %s);
  if (!g) return null;
  const shape = g.querySelector('text') || g.querySelector('polygon, ellipse, path');
  shape.scrollIntoView({block: 'center', inline: 'center'});
  const r = shape.getBoundingClientRect();
  const x = r.x + r.width / 2, y = r.y + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  return {x: x, y: y, on: !!hit && hit.closest('g.node, g.edge') === g};
})()"""
LINKS = """Array.from(document.querySelectorAll('svg a')).filter(a =>
  a.hasAttribute('href') || a.hasAttributeNS('http://www.w3.org/1999/xlink', 'href')).length"""


def show_graph(browser, type_index):
    if type_index is not None:
        browser.evaluate(f"location.hash = '#view=graph&type={type_index}'")
        browser.pump(0.2)
        browser.evaluate("document.getElementById('graph').scrollIntoView()")
        browser.pump(0.1)


def main():
    page = sys.argv[1]
    type_index = sys.argv[2] if len(sys.argv) > 2 else None
    browser = Browser()
    try:
        browser.open(page)
        browser.pump(0.3)
        show_graph(browser, type_index)
        check(browser.evaluate(LINKS) == 0, "the drawing holds links")
        names = browser.evaluate(NAMES)
        check(names, "no node or edge drawn")
        for name in names:
            show_graph(browser, type_index)
            # Aimed again each time: a click elsewhere may have scrolled or redrawn the view.
            aim = browser.evaluate(AIM % json.dumps(name))
            check(aim is not None, f"{name} is no longer drawn")
            check(aim["on"], f"a click at the centre of {name} would land on something else")
            browser.click(aim["x"], aim["y"])
            browser.pump(0.1)
            dialogs = [e for e in browser.events
                       if e.get("method") == "Page.javascriptDialogOpening"]
            check(not dialogs, f"a click on {name} opened a dialog: {dialogs[:1]}")
            url = browser.evaluate("location.href.split('#')[0]")
            check(url == browser.url, f"a click on {name} went to {url}")
            problems = browser.problems()
            check(not problems, f"after a click on {name}: " + "; ".join(problems))
        show_graph(browser, type_index)
        check(browser.evaluate("document.querySelectorAll('g.node').length") > 0,
              "no node drawn after the clicks")
        print(f"ok: {page}: {len(names)} nodes and edges clicked, no script ran")
    finally:
        browser.close()


if __name__ == "__main__":
    run(main)
