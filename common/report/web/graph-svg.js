// prof-svg --graph's script, embedded at the end of the SVG (no network) after
// graph-pan-zoom.js: pan, zoom and hover over the whole window, and the help line.
(function () {
  'use strict';
  const svg = document.documentElement;
  const help = document.getElementById('help');
  proftoolsPanZoom(svg, document.getElementById('viewport'), function () { return true; });

  // A point of the window (client pixels) in the root's coordinates (its viewBox).
  function toRoot(clientX, clientY) {
    const point = svg.createSVGPoint();
    point.x = clientX;
    point.y = clientY;
    return point.matrixTransform(svg.getScreenCTM().inverse());
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

  window.addEventListener('resize', placeHelp);
  placeHelp();
})();
