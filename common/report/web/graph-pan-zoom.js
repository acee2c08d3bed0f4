// The call graph's pan (drag), zoom (wheel, + and - keys, 0 resets) and hover, shared by
// prof-svg --graph's page (graph-svg.js) and prof-html's call graph view (report.js). Works on
// `svg`, whose group `viewport` holds Graphviz's drawing, by changing the group's transform.
// `keysActive()` says whether a key press is meant for this graph (in prof-html: its view is
// shown and no text field has the focus). The tooltips are Graphviz's own (<title> and
// xlink:title), so hovering needs no script; the script marks the edges into and out of the
// hovered node. Returns {reset, dragged}: dragged() is true when the last press of the button
// moved the drawing (so that a click after a drag is not taken for a click on a node).
function proftoolsPanZoom(svg, viewport, keysActive) {
  'use strict';
  const minScale = 0.05;
  const maxScale = 40;
  let scale = 1;
  let tx = 0;
  let ty = 0;
  let moved = false;

  function apply() {
    viewport.setAttribute('transform',
      'matrix(' + scale + ' 0 0 ' + scale + ' ' + tx.toFixed(2) + ' ' + ty.toFixed(2) + ')');
  }

  // A point of the window (client pixels) in the root's coordinates (its viewBox).
  function toRoot(clientX, clientY) {
    const point = svg.createSVGPoint();
    point.x = clientX;
    point.y = clientY;
    return point.matrixTransform(svg.getScreenCTM().inverse());
  }

  // Zooms by `factor` keeping `at` (root coordinates) where it is on the screen.
  function zoomAt(at, factor) {
    const next = Math.min(maxScale, Math.max(minScale, scale * factor));
    const applied = next / scale;
    tx = at.x - (at.x - tx) * applied;
    ty = at.y - (at.y - ty) * applied;
    scale = next;
    apply();
  }

  // The middle of what the window shows of the graph.
  function center() {
    const box = svg.getBoundingClientRect();
    const left = Math.max(box.left, 0);
    const top = Math.max(box.top, 0);
    const right = Math.min(box.right, window.innerWidth);
    const bottom = Math.min(box.bottom, window.innerHeight);
    return toRoot((left + right) / 2, (top + bottom) / 2);
  }

  function reset() {
    scale = 1;
    tx = 0;
    ty = 0;
    apply();
  }

  svg.addEventListener('wheel', function (event) {
    event.preventDefault();
    zoomAt(toRoot(event.clientX, event.clientY), Math.exp(-event.deltaY * 0.002));
  }, { passive: false });

  let drag = null;
  svg.addEventListener('mousedown', function (event) {
    if (event.button !== 0) return;
    event.preventDefault();  // no text selection while dragging
    drag = { from: toRoot(event.clientX, event.clientY), x: event.clientX, y: event.clientY,
             tx: tx, ty: ty };
    moved = false;
    svg.classList.add('dragging');
  });
  window.addEventListener('mousemove', function (event) {
    if (!drag) return;
    const at = toRoot(event.clientX, event.clientY);
    tx = drag.tx + at.x - drag.from.x;
    ty = drag.ty + at.y - drag.from.y;
    if (Math.abs(event.clientX - drag.x) + Math.abs(event.clientY - drag.y) > 3) moved = true;
    apply();
  });
  window.addEventListener('mouseup', function () {
    drag = null;
    svg.classList.remove('dragging');
  });

  window.addEventListener('keydown', function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;  // the browser's own zoom
    if (!keysActive()) return;
    if (event.key === '+' || event.key === '=') {
      zoomAt(center(), 1.25);
    } else if (event.key === '-' || event.key === '_') {
      zoomAt(center(), 0.8);
    } else if (event.key === '0') {
      reset();
    } else {
      return;
    }
    event.preventDefault();
  });

  // Graphviz titles an edge "N1->N2" and a node "N1": hovering a node marks its edges.
  const edgesOf = new Map();
  viewport.querySelectorAll('g.edge').forEach(function (edge) {
    const title = edge.querySelector('title');
    if (!title) return;
    title.textContent.split('->').forEach(function (end) {
      const name = end.replace(/:.*/, '');  // a port, when there is one
      if (!edgesOf.has(name)) edgesOf.set(name, []);
      edgesOf.get(name).push(edge);
    });
  });
  viewport.querySelectorAll('g.node').forEach(function (node) {
    const title = node.querySelector('title');
    const edges = (title && edgesOf.get(title.textContent)) || [];
    node.addEventListener('mouseenter', function () {
      edges.forEach(function (edge) { edge.classList.add('marked'); });
    });
    node.addEventListener('mouseleave', function () {
      edges.forEach(function (edge) { edge.classList.remove('marked'); });
    });
  });

  return { reset: reset, dragged: function () { return moved; } };
}
