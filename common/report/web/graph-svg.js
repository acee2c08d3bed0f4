// prof-svg --graph's script: pan (drag), zoom (wheel, + and - keys, 0 resets) and hover over the
// call graph Graphviz laid out. Embedded at the end of the SVG (no network); works on
// <g id="viewport">, which holds Graphviz's drawing, by changing its transform. The tooltips are
// Graphviz's own (<title> and xlink:title), so hovering needs no script; the script marks the
// edges into and out of the hovered node.
(function () {
  'use strict';
  const svg = document.documentElement;
  const viewport = document.getElementById('viewport');
  const help = document.getElementById('help');
  const minScale = 0.05;
  const maxScale = 40;
  let scale = 1;
  let tx = 0;
  let ty = 0;

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

  function center() {
    return toRoot(window.innerWidth / 2, window.innerHeight / 2);
  }

  function reset() {
    scale = 1;
    tx = 0;
    ty = 0;
    apply();
  }

  // The help line stays at the window's top left, at 12 pixels whatever the viewBox's scale.
  function placeHelp() {
    const matrix = svg.getScreenCTM();
    if (!help || !matrix) return;
    const at = toRoot(8, 18);
    help.setAttribute('x', at.x.toFixed(2));
    help.setAttribute('y', at.y.toFixed(2));
    help.setAttribute('font-size', (12 / matrix.a).toFixed(3));
  }

  svg.addEventListener('wheel', function (event) {
    event.preventDefault();
    zoomAt(toRoot(event.clientX, event.clientY), Math.exp(-event.deltaY * 0.002));
  }, { passive: false });

  let drag = null;
  svg.addEventListener('mousedown', function (event) {
    if (event.button !== 0) return;
    event.preventDefault();  // no text selection while dragging
    drag = { from: toRoot(event.clientX, event.clientY), tx: tx, ty: ty };
    svg.classList.add('dragging');
  });
  window.addEventListener('mousemove', function (event) {
    if (!drag) return;
    const at = toRoot(event.clientX, event.clientY);
    tx = drag.tx + at.x - drag.from.x;
    ty = drag.ty + at.y - drag.from.y;
    apply();
  });
  window.addEventListener('mouseup', function () {
    drag = null;
    svg.classList.remove('dragging');
  });

  window.addEventListener('keydown', function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;  // the browser's own zoom
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
  document.querySelectorAll('g.edge').forEach(function (edge) {
    const title = edge.querySelector('title');
    if (!title) return;
    title.textContent.split('->').forEach(function (end) {
      const name = end.replace(/:.*/, '');  // a port, when there is one
      if (!edgesOf.has(name)) edgesOf.set(name, []);
      edgesOf.get(name).push(edge);
    });
  });
  document.querySelectorAll('g.node').forEach(function (node) {
    const title = node.querySelector('title');
    const edges = (title && edgesOf.get(title.textContent)) || [];
    node.addEventListener('mouseenter', function () {
      edges.forEach(function (edge) { edge.classList.add('marked'); });
    });
    node.addEventListener('mouseleave', function () {
      edges.forEach(function (edge) { edge.classList.remove('marked'); });
    });
  });

  window.addEventListener('resize', placeHelp);
  placeHelp();
})();
