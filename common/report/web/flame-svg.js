// prof-svg's script: hover details, click to zoom, search with highlight, reset. Embedded at the end of the
// SVG (no network); works on the frames as the C++ writer draws them: <g class="f" data-v=VALUE>
// holding <title> (the name on its first line), <rect> and <text>.
(function () {
  'use strict';
  const svg = document.documentElement;
  const pad = Number(svg.getAttribute('data-pad'));
  const charWidth = Number(svg.getAttribute('data-char-width'));
  const total = Number(svg.getAttribute('data-total'));
  const inverted = svg.getAttribute('data-inverted') === '1';
  const nameType = svg.getAttribute('data-name-type');
  const fullWidth = Number(svg.getAttribute('data-width')) - 2 * pad;
  const details = document.getElementById('details');
  const matched = document.getElementById('matched');
  const resetButton = document.getElementById('reset');
  const searchButton = document.getElementById('search');
  const matchColor = 'rgb(230,0,230)';

  // Every frame with its drawn geometry, remembered before any zoom changes it.
  const frames = Array.from(document.querySelectorAll('g.f')).map(function (g) {
    const rect = g.querySelector('rect');
    const title = g.querySelector('title').textContent;
    return {
      g: g,
      rect: rect,
      text: g.querySelector('text'),
      name: title.split('\n')[0],
      title: title.replace(/\n/g, '  '),
      value: Number(g.getAttribute('data-v')),
      x: Number(rect.getAttribute('x')),
      y: Number(rect.getAttribute('y')),
      width: Number(rect.getAttribute('width')),
      fill: rect.getAttribute('fill'),
    };
  });
  const byElement = new Map(frames.map(function (f) { return [f.g, f]; }));
  let zoomed = null;
  let searchTerm = null;

  // The name cut to the width, as the writer labels frames (web/fit-name.js).
  function label(name, width) {
    return proftoolsFitName(name, Math.floor(width / charWidth));
  }

  function place(f, x, width) {
    f.rect.setAttribute('x', x.toFixed(2));
    f.rect.setAttribute('width', width.toFixed(2));
    f.text.setAttribute('x', (x + 3).toFixed(2));
    f.text.textContent = label(f.name, width);
  }

  // Below the zoomed frame in the picture: its callers (above it in an icicle).
  function isAncestorRow(f, of) {
    return inverted ? f.y < of.y : f.y > of.y;
  }

  const epsilon = 0.005;  // coordinates are written with two decimals

  function zoom(target) {
    zoomed = target;
    resetButton.classList.remove('hide');
    const scale = fullWidth / target.width;
    frames.forEach(function (f) {
      const inside = f.x >= target.x - epsilon && f.x + f.width <= target.x + target.width + epsilon;
      const contains = f.x <= target.x + epsilon && f.x + f.width >= target.x + target.width - epsilon;
      f.g.classList.remove('parent');
      if (f === target || (!isAncestorRow(f, target) && f.y !== target.y && inside)) {
        f.g.classList.remove('hide');
        place(f, pad + (f.x - target.x) * scale, f.width * scale);
      } else if (isAncestorRow(f, target) && contains) {
        f.g.classList.remove('hide');
        f.g.classList.add('parent');
        place(f, pad, fullWidth);
      } else {
        f.g.classList.add('hide');
      }
    });
  }

  function unzoom() {
    zoomed = null;
    resetButton.classList.add('hide');
    frames.forEach(function (f) {
      f.g.classList.remove('hide', 'parent');
      place(f, f.x, f.width);
    });
  }

  // Highlights frames whose name matches `term` (a regular expression), and shows the share of
  // the total they account for, each sample counted once however many matching frames it has.
  function search(term) {
    let re;
    try {
      re = new RegExp(term);
    } catch (e) {
      matched.textContent = 'Bad expression';
      return;
    }
    searchTerm = term;
    searchButton.textContent = 'Reset Search';
    const hits = [];
    frames.forEach(function (f) {
      const hit = re.test(f.name);
      f.rect.setAttribute('fill', hit ? matchColor : f.fill);
      if (hit) hits.push(f);
    });
    // A frame inside another matching frame (same x range, further from the root) is already
    // counted: sort by x, widest first, and count only frames that start past the last counted.
    hits.sort(function (a, b) { return a.x - b.x || b.width - a.width; });
    let sum = 0;
    let end = -Infinity;
    hits.forEach(function (f) {
      if (f.x >= end - epsilon) {
        sum += f.value;
        end = f.x + f.width;
      }
    });
    matched.textContent = 'Matched: ' + (total > 0 ? (100 * sum / total).toFixed(2) : '0.00') + '%';
    matched.setAttribute('data-matched', String(sum));
  }

  function resetSearch() {
    searchTerm = null;
    searchButton.textContent = 'Search';
    matched.textContent = ' ';
    matched.removeAttribute('data-matched');
    frames.forEach(function (f) { f.rect.setAttribute('fill', f.fill); });
  }

  function askSearch() {
    if (searchTerm !== null) {
      resetSearch();
      return;
    }
    const term = window.prompt('Search for frames matching (a regular expression):', '');
    if (term) search(term);
  }

  svg.addEventListener('mouseover', function (event) {
    const g = event.target.closest && event.target.closest('g.f');
    if (g) details.textContent = nameType + ' ' + byElement.get(g).title;
  });
  svg.addEventListener('mouseout', function (event) {
    if (event.target.closest && event.target.closest('g.f')) details.textContent = ' ';
  });
  svg.addEventListener('click', function (event) {
    const g = event.target.closest && event.target.closest('g.f');
    if (g) zoom(byElement.get(g));
    else if (event.target === resetButton) unzoom();
    else if (event.target === searchButton) askSearch();
  });
  window.addEventListener('keydown', function (event) {
    if ((event.ctrlKey && event.key === 'f') || event.key === 'F3') {
      event.preventDefault();
      askSearch();
    } else if (event.key === 'Escape') {
      if (zoomed) unzoom();
      resetSearch();
    }
  });
})();
