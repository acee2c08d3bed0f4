// prof-html's script: reads the profile embedded as JSON (stacks, root first, with their sums
// per value type) and draws the views from it. Every view follows the URL fragment
// (#view=...&type=...&seq=...), so the back button, links and bookmarks work offline.
(function () {
  'use strict';
  const data = JSON.parse(document.getElementById('profile-data').textContent);
  const frames = data.frames.map(function (f) { return {name: f[0], kind: f[1], source: f[2]}; });
  // seq: the frames the sequence view reads, directly repeated cycles collapsed as prof-text
  // --peek-seq reads them (sent only when they differ).
  const stacks = data.stacks.map(function (s) {
    return {frames: s[0], values: s[1], seq: s[2] || s[0]};
  });
  const idByName = new Map(frames.map(function (f, i) { return [f.name, i]; }));
  const $ = function (id) { return document.getElementById(id); };

  // --- values as prof-text writes them (common/report/value_format.cc) ----------------------
  const timeUnits = {nanoseconds: 1, nanosecond: 1, ns: 1, microseconds: 1e3, microsecond: 1e3,
                     us: 1e3, milliseconds: 1e6, millisecond: 1e6, ms: 1e6, seconds: 1e9,
                     second: 1e9, s: 1e9};
  const byteUnits = {bytes: 1, byte: 1, B: 1, kilobytes: 1024, KiB: 1024, kB: 1024,
                     megabytes: 1048576, MiB: 1048576, MB: 1048576};
  const timeScales = [['ns', 1], ['us', 1e3], ['ms', 1e6], ['s', 1e9]];
  const byteScales = [['B', 1], ['KiB', 1024], ['MiB', 1048576], ['GiB', 1073741824],
                      ['TiB', 1099511627776]];

  function scaled(base, scales) {
    let pick = 0;
    scales.forEach(function (s, i) { if (Math.abs(base) >= s[1]) pick = i; });
    let text = (base / scales[pick][1]).toFixed(2);
    if (text.endsWith('.00')) text = text.slice(0, -3);
    if (text === '-0') text = '0';
    return text + scales[pick][0];
  }

  function formatValue(value, unit) {
    if (value === 0) return '0';
    if (unit in timeUnits) return scaled(value * timeUnits[unit], timeScales);
    if (unit in byteUnits) return scaled(value * byteUnits[unit], byteScales);
    return String(value);
  }

  function formatPercent(value, total) {
    return total === 0 ? '-' : (100 * value / total).toFixed(2) + '%';
  }

  // --- state in the URL fragment -------------------------------------------------------------
  // A brushed range of timeline bins, "A-B" (bins A to B-1), or null.
  function brushOf(text) {
    const match = /^(\d+)-(\d+)$/.exec(text || '');
    if (!match || !data.timeline) return null;
    const a = Number(match[1]), b = Number(match[2]);
    return a < b && b <= data.timeline.bins ? [a, b] : null;
  }

  function readState() {
    const params = new URLSearchParams(location.hash.slice(1));
    const names = function (key) {
      const text = params.get(key);
      return text ? text.split(',').map(decodeURIComponent).filter(function (n) {
        return idByName.has(n);
      }).map(function (n) { return idByName.get(n); }) : [];
    };
    let type = Number(params.get('type'));
    if (!(type >= 0 && type < data.types.length) || params.get('type') === null) {
      type = data.valueIndex;
    }
    return {
      view: ['top', 'flame', 'seq'].includes(params.get('view')) ? params.get('view') : 'top',
      type: type,
      seq: names('seq'),
      zoom: names('zoom'),
      icicle: params.get('icicle') === '1',
      q: params.get('q') || '',
      sort: params.get('sort') || '',
      t: brushOf(params.get('t')),
    };
  }

  function link(changes) {
    const state = Object.assign(readState(), changes);
    const parts = ['view=' + state.view, 'type=' + state.type];
    // Encoded twice: URLSearchParams decodes once, and a name may hold a comma (C++ templates),
    // which must not split the list.
    const ids = function (list) {
      return list.map(function (i) {
        return encodeURIComponent(encodeURIComponent(frames[i].name));
      }).join(',');
    };
    if (state.seq.length) parts.push('seq=' + ids(state.seq));
    if (state.zoom.length) parts.push('zoom=' + ids(state.zoom));
    if (state.icicle) parts.push('icicle=1');
    if (state.q) parts.push('q=' + encodeURIComponent(state.q));
    if (state.sort) parts.push('sort=' + state.sort);
    if (state.t) parts.push('t=' + state.t[0] + '-' + state.t[1]);
    return '#' + parts.join('&');
  }

  function go(changes) { location.hash = link(changes); }

  // --- sums -----------------------------------------------------------------------------------
  // What the views sum: every stack, or within a time brush the parts of samples in the brushed
  // bins (the timeline cut long samples as prof-filter --time cuts them); totals are sums of
  // magnitudes, as prof-text's.
  let active = {stacks: stacks, totals: data.totals};

  function activeData(state) {
    if (!state.t) return {stacks: stacks, totals: data.totals};
    const byStack = new Map();
    const totals = data.types.map(function () { return 0; });
    data.timeline.entries.forEach(function (e) {
      if (e[1] < state.t[0] || e[1] >= state.t[1]) return;
      let values = byStack.get(e[2]);
      if (!values) { values = totals.map(function () { return 0; }); byStack.set(e[2], values); }
      for (let i = 0; i < totals.length; i++) {
        values[i] += e[3 + i];
        totals[i] += Math.abs(e[3 + i]);
      }
    });
    const list = Array.from(byStack.keys()).sort(function (a, b) { return a - b; })
      .map(function (id) {
        return {frames: stacks[id].frames, values: byStack.get(id), seq: stacks[id].seq};
      });
    return {stacks: list, totals: totals};
  }

  function total(type) { return active.totals[type]; }

  // Flat and cumulative value per frame, each frame counted once per stack (as prof-text --top).
  function frameTotals(type) {
    const flat = new Float64Array(frames.length);
    const cum = new Float64Array(frames.length);
    const seen = new Int32Array(frames.length).fill(-1);  // the last stack counted, per frame
    active.stacks.forEach(function (s, index) {
      const v = s.values[type];
      if (s.frames.length === 0) return;
      flat[s.frames[s.frames.length - 1]] += v;
      s.frames.forEach(function (f) {
        if (seen[f] !== index) { seen[f] = index; cum[f] += v; }
      });
    });
    return {flat: flat, cum: cum, present: seen};
  }

  function cell(text, className) {
    const td = document.createElement('td');
    td.textContent = text;
    if (className) td.className = className;
    return td;
  }

  function frameLink(id, href) {
    const a = document.createElement('a');
    a.textContent = frames[id].name;
    a.href = href;
    a.className = 'frame';
    if (frames[id].source) a.title = frames[id].source;
    return a;
  }

  // --- overall and self lists -----------------------------------------------------------------
  function drawLists(state) {
    const unit = data.types[state.type].unit;
    const sums = frameTotals(state.type);
    const t = total(state.type);
    let re = null;
    try { re = state.q ? new RegExp(state.q) : null; } catch (e) { re = /$^/; }
    $('top-search').value = state.q;
    const ids = [];
    for (let i = 0; i < frames.length; i++) {
      // On some stack and not all zero, as prof-text --top --no-trim's rows.
      if (sums.present[i] >= 0 && (sums.flat[i] !== 0 || sums.cum[i] !== 0)) ids.push(i);
    }
    [['self', 'flat'], ['overall', 'cum']].forEach(function (pair) {
      const table = $(pair[0]);
      const key = state.sort && pair[0] === 'self' ? state.sort : pair[1];
      const other = key === 'flat' ? 'cum' : 'flat';
      // prof-text --top's order (pprof's): |value| descending, then name, then |other value|.
      const rows = ids.slice().sort(function (a, b) {
        return Math.abs(sums[key][b]) - Math.abs(sums[key][a]) ||
          (frames[a].name < frames[b].name ? -1 : frames[a].name > frames[b].name ? 1 : 0) ||
          Math.abs(sums[other][b]) - Math.abs(sums[other][a]);
      });
      table.textContent = '';
      const head = document.createElement('tr');
      ['flat', 'flat%', 'sum%', 'cum', 'cum%', 'name'].forEach(function (title) {
        const th = document.createElement('th');
        th.textContent = title;
        if (title === 'name') th.className = 'name';
        if (title === 'flat' || title === 'cum') {
          th.title = 'sort by ' + title;
          th.addEventListener('click', function () {
            if (pair[0] === 'self') go({sort: title === 'flat' ? '' : 'cum'});
          });
        }
        head.appendChild(th);
      });
      table.appendChild(head);
      let running = 0;
      const body = document.createDocumentFragment();
      rows.forEach(function (id) {
        running += sums.flat[id];
        if (re && !re.test(frames[id].name)) return;
        const tr = document.createElement('tr');
        tr.appendChild(cell(formatValue(sums.flat[id], unit)));
        tr.appendChild(cell(formatPercent(sums.flat[id], t)));
        tr.appendChild(cell(formatPercent(running, t)));
        tr.appendChild(cell(formatValue(sums.cum[id], unit)));
        tr.appendChild(cell(formatPercent(sums.cum[id], t)));
        const name = cell('', 'name');
        name.appendChild(frameLink(id, link({view: 'seq', seq: [id]})));
        tr.appendChild(name);
        body.appendChild(tr);
      });
      table.appendChild(body);
    });
  }

  // --- flame graph ----------------------------------------------------------------------------
  // The tree of stacks merged from the root, children by name, as prof-svg draws it.
  function flameTree(type) {
    const root = {id: -1, value: 0, children: new Map()};
    active.stacks.forEach(function (s) {
      const v = s.values[type];
      if (v <= 0 || s.frames.length === 0) return;
      root.value += v;
      let node = root;
      s.frames.forEach(function (f) {
        let child = node.children.get(f);
        if (!child) {
          child = {id: f, value: 0, children: new Map(), parent: node};
          node.children.set(f, child);
        }
        child.value += v;
        node = child;
      });
    });
    return root;
  }

  function sortedChildren(node) {
    return Array.from(node.children.values()).sort(function (a, b) {
      const x = frames[a.id].name, y = frames[b.id].name;
      return x < y ? -1 : x > y ? 1 : 0;
    });
  }

  // `name` cut to `chars` characters as prof-svg labels frames (FitFrameLabel in flame_svg.cc):
  // the template arguments elided, then the middle, so the end (the function's name) stays.
  function fitName(name, chars) {
    if (chars < 3) return '';
    if (Array.from(name).length <= chars) return name;
    if (name.indexOf('::') < 0 && name.indexOf('<') < 0) {
      return Array.from(name).slice(0, chars - 2).join('') + '..';  // as flamegraph.pl
    }
    let shorter = '';
    let depth = 0;
    for (let i = 0; i < name.length; ++i) {
      const c = name[i];
      if (c === '<' && depth === 0 && i >= 8 && name.slice(i - 8, i) === 'operator') {
        shorter += c;
        if (name[i + 1] === '<') shorter += name[++i];
      } else if (c === '<') {
        if (depth++ === 0) shorter += '<..';
      } else if (c === '>' && depth > 0) {
        if (--depth === 0) shorter += '>';
      } else if (depth === 0) {
        shorter += c;
      }
    }
    const letters = Array.from(depth === 0 ? shorter : name);
    if (letters.length <= chars) return letters.join('');
    const head = Math.floor((chars - 2) / 3);
    return letters.slice(0, head).join('') + '..' +
      letters.slice(letters.length - (chars - 2 - head)).join('');
  }

  function hue(name, kind) {
    let h = 2166136261;
    for (let i = 0; i < name.length; i++) { h ^= name.charCodeAt(i); h = Math.imul(h, 16777619); }
    const a = ((h >>> 0) & 0xffff) / 65536, b = ((h >>> 16) & 0xffff) / 65536;
    if (kind === 'kernel') return 'rgb(' + (190 + 65 * a | 0) + ',' + (90 + 65 * a | 0) + ',0)';
    if (kind === 'jit') return 'rgb(' + (50 + 60 * a | 0) + ',' + (200 + 55 * a | 0) + ',' + (50 + 60 * a | 0) + ')';
    if (kind === 'inlined') return 'rgb(' + (50 + 60 * a | 0) + ',' + (165 + 55 * a | 0) + ',' + (165 + 55 * a | 0) + ')';
    return 'rgb(' + (205 + 50 * b | 0) + ',' + (230 * a | 0) + ',' + (55 * b | 0) + ')';
  }

  function drawFlame(state) {
    const svg = $('flame');
    const unit = data.types[state.type].unit;
    const root = flameTree(state.type);
    // The zoomed node: the path of names from the root, as far as it exists.
    let focus = root;
    const path = [];
    for (const id of state.zoom) {
      const next = focus.children.get(id);
      if (!next) break;
      focus = next;
      path.push(id);
    }
    $('flame-reset').classList.toggle('hide', focus === root);
    $('flame-reset').href = link({zoom: []});
    $('icicle').checked = state.icicle;
    $('flame-search').value = state.q;
    let re = null;
    try { re = state.q ? new RegExp(state.q) : null; } catch (e) { re = null; }
    const width = Math.max(400, svg.clientWidth || document.body.clientWidth - 32);
    const rowHeight = 16;
    const rows = [];  // [node, depth, x, width, isAncestor]
    const ancestors = [];
    for (let n = focus; n; n = n.parent) ancestors.unshift(n);
    ancestors.forEach(function (n, depth) { rows.push([n, depth, 0, width, n !== focus]); });
    const scale = focus.value > 0 ? width / focus.value : 0;
    let maxDepth = ancestors.length - 1;
    const walk = function (node, depth, x) {
      sortedChildren(node).forEach(function (child) {
        const w = child.value * scale;
        if (w >= 0.1) {
          rows.push([child, depth, x, w, false]);
          maxDepth = Math.max(maxDepth, depth);
          walk(child, depth + 1, x);
        }
        x += w;
      });
    };
    walk(focus, ancestors.length, 0);
    const height = (maxDepth + 1) * rowHeight;
    svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
    svg.setAttribute('height', height);
    svg.textContent = '';
    const ns = 'http://www.w3.org/2000/svg';
    let matched = 0;
    const t = root.value;
    rows.forEach(function (row) {
      const node = row[0], depth = row[1], x = row[2], w = row[3];
      const y = state.icicle ? depth * rowHeight : height - (depth + 1) * rowHeight;
      const name = node.id < 0 ? 'all' : frames[node.id].name;
      const g = document.createElementNS(ns, 'g');
      g.setAttribute('class', 'f' + (row[4] ? ' parent' : ''));
      g.dataset.v = node.value;
      g.dataset.name = name;
      const rect = document.createElementNS(ns, 'rect');
      rect.setAttribute('x', x.toFixed(2));
      rect.setAttribute('y', y);
      rect.setAttribute('width', w.toFixed(2));
      rect.setAttribute('height', rowHeight - 1);
      rect.setAttribute('rx', 2);
      const hit = re && node.id >= 0 && re.test(name);
      rect.setAttribute('fill', hit ? 'rgb(230,0,230)' : node.id < 0 ? 'rgb(230,200,0)'
        : hue(name, frames[node.id].kind));
      g.appendChild(rect);
      const chars = Math.floor(w / 7);
      if (chars >= 3) {
        const text = document.createElementNS(ns, 'text');
        text.setAttribute('x', (x + 3).toFixed(2));
        text.setAttribute('y', y + 12);
        text.textContent = fitName(name, chars);
        g.appendChild(text);
      }
      const details = name + '\n' + formatValue(node.value, unit) + ' (' +
        formatPercent(node.value, t) + ')' + (node.id >= 0 && frames[node.id].source ?
        '\n' + frames[node.id].source : '');
      g.addEventListener('mouseover', function () { $('flame-details').textContent = details; });
      g.addEventListener('click', function () {
        const zoom = [];
        for (let n = node; n && n.id >= 0; n = n.parent) zoom.unshift(n.id);
        go({zoom: zoom});
      });
      svg.appendChild(g);
      if (hit && !row[4]) {
        let inside = false;  // counted with a matching caller already
        for (let n = node.parent; n && n.id >= 0; n = n.parent) {
          if (re.test(frames[n.id].name)) { inside = true; break; }
        }
        if (!inside) matched += node.value;
      }
    });
    $('flame-matched').textContent = re ? 'Matched: ' + formatPercent(matched, t) : '';
    $('flame-matched').dataset.matched = re ? String(matched) : '';
  }

  // --- sequence view --------------------------------------------------------------------------
  // Where `seq` occurs in `path` (root first) as consecutive frames: the first and the last
  // start, or null.
  function occurrences(path, seq) {
    let first = -1, last = -1;
    for (let i = 0; i + seq.length <= path.length; i++) {
      let k = 0;
      while (k < seq.length && path[i + k] === seq[k]) k++;
      if (k === seq.length) { if (first < 0) first = i; last = i; }
    }
    return first < 0 ? null : [first, last];
  }

  // Cumulative value: samples whose stack holds the sequence. Self: those it ends. Callers: the
  // frame before its outermost occurrence ([root] when it starts the stack); callees: the frame
  // after its innermost occurrence ([self] when it ends the stack). Each sample is counted once
  // on each side, so callers and callees both add up to the cumulative value.
  function drawSequence(state) {
    const seq = state.seq;
    const unit = data.types[state.type].unit;
    const t = total(state.type);
    const path = $('seq-path');
    path.textContent = '';
    if (seq.length === 0) {
      path.textContent = 'Pick a frame in a list or the flame graph.';
      $('seq-values').textContent = '';
      $('seq-callers').textContent = '';
      $('seq-callees').textContent = '';
      return;
    }
    seq.forEach(function (id, i) {
      if (i > 0) path.appendChild(document.createTextNode(' \u2192 '));
      path.appendChild(frameLink(id, link({view: 'seq', seq: [id]})));
    });
    if (seq.length > 1) {
      const trims = document.createElement('small');
      const first = document.createElement('a');
      first.textContent = ' [drop first]';
      first.href = link({seq: seq.slice(1)});
      const last = document.createElement('a');
      last.textContent = ' [drop last]';
      last.href = link({seq: seq.slice(0, -1)});
      trims.appendChild(first);
      trims.appendChild(last);
      path.appendChild(trims);
    }
    let cum = 0, self = 0;
    const callers = new Map(), callees = new Map();
    active.stacks.forEach(function (s) {
      const v = s.values[state.type];
      if (v === 0) return;  // as prof-text, which leaves out stacks of value 0
      const at = occurrences(s.seq, seq);
      if (!at) return;
      cum += v;
      const before = at[0] > 0 ? s.seq[at[0] - 1] : -1;
      const afterIndex = at[1] + seq.length;
      const after = afterIndex < s.seq.length ? s.seq[afterIndex] : -2;
      if (after === -2) self += v;
      callers.set(before, (callers.get(before) || 0) + v);
      callees.set(after, (callees.get(after) || 0) + v);
    });
    $('seq-values').textContent = 'cumulative ' + formatValue(cum, unit) + ' (' +
      formatPercent(cum, t) + '), self ' + formatValue(self, unit) + ' (' +
      formatPercent(self, t) + ')';
    $('seq-values').dataset.cum = String(cum);
    $('seq-values').dataset.self = String(self);
    const fill = function (table, map, extend) {
      table.textContent = '';
      Array.from(map.entries()).sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; })
        .forEach(function (entry) {
          const tr = document.createElement('tr');
          tr.dataset.v = entry[1];
          tr.appendChild(cell(formatValue(entry[1], unit)));
          tr.appendChild(cell(formatPercent(entry[1], cum)));
          const name = cell('', 'name');
          if (entry[0] >= 0) name.appendChild(frameLink(entry[0], link({seq: extend(entry[0])})));
          else name.textContent = entry[0] === -1 ? '[root]' : '[self]';
          tr.appendChild(name);
          table.appendChild(tr);
        });
    };
    fill($('seq-callers'), callers, function (id) { return [id].concat(seq); });
    fill($('seq-callees'), callees, function (id) { return seq.concat([id]); });
  }

  // --- header and frame -----------------------------------------------------------------------
  function drawHeader(state) {
    const type = data.types[state.type];
    $('summary').textContent = type.type + '/' + type.unit + ': ' +
      formatValue(total(state.type), type.unit) + ' total' +
      (state.t ? ' in the selected time' : ' in ' + data.samples + ' samples') +
      (data.filters ? '; filters: ' + data.filters : '');
    $('summary').dataset.total = String(total(state.type));
    const body = $('provenance-body');
    if (body.childElementCount) return;
    const list = document.createElement('ul');
    const item = function (text) {
      const li = document.createElement('li');
      li.textContent = text;
      list.appendChild(li);
    };
    data.sources.forEach(function (s) {
      item('source: ' + s[0] + ' ' + s[1] + (s[2] !== null ?
        ' at ' + new Date(s[2] / 1e6).toISOString() : ''));
    });
    data.meta.forEach(function (m) { item('meta: ' + m[0] + ' = ' + m[1]); });
    data.comments.forEach(function (c) { item('comment: ' + c); });
    item('filters: ' + (data.filters || 'none'));
    body.appendChild(list);
  }

  // --- timeline -------------------------------------------------------------------------------
  // One row per source and thread, a mark per bin holding samples (long samples cover several
  // bins: a wide mark); drag across it to select a time range, which every view then sums.
  function drawTimeline(state) {
    const timeline = data.timeline;
    const box = $('timeline');
    if (!timeline) { $('timeline-section').classList.add('hide'); return; }
    const labelWidth = 160, rowHeight = 18;
    const width = Math.max(400, box.clientWidth || document.body.clientWidth - 32);
    const binWidth = (width - labelWidth) / timeline.bins;
    const height = timeline.rows.length * rowHeight;
    box.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
    box.setAttribute('height', height);
    box.textContent = '';
    const ns = 'http://www.w3.org/2000/svg';
    const add = function (tag, attributes, parent) {
      const element = document.createElementNS(ns, tag);
      Object.keys(attributes).forEach(function (k) { element.setAttribute(k, attributes[k]); });
      (parent || box).appendChild(element);
      return element;
    };
    // Each row's bins, the darker the more value of the shown type.
    const sums = timeline.rows.map(function () { return new Float64Array(timeline.bins); });
    let max = 0;
    timeline.entries.forEach(function (e) {
      sums[e[0]][e[1]] += Math.abs(e[3 + state.type]);
      max = Math.max(max, sums[e[0]][e[1]]);
    });
    timeline.rows.forEach(function (name, row) {
      const label = add('text', {x: 0, y: row * rowHeight + 13, class: 'row-label'});
      label.textContent = fitName(name, 24);
      sums[row].forEach(function (v, bin) {
        if (v === 0) return;
        add('rect', {x: (labelWidth + bin * binWidth).toFixed(2), y: row * rowHeight + 2,
                     width: Math.max(1, binWidth).toFixed(2), height: rowHeight - 4,
                     fill: 'rgba(200,80,0,' + (0.25 + 0.75 * v / max).toFixed(3) + ')'});
      });
    });
    if (state.t) {
      add('rect', {x: (labelWidth + state.t[0] * binWidth).toFixed(2), y: 0,
                   width: ((state.t[1] - state.t[0]) * binWidth).toFixed(2), height: height,
                   class: 'brush'});
    }
    const offset = function (bin) { return formatValue(bin * timeline.width, 'nanoseconds'); };
    // The window on the sources' clock, as prof-filter --time takes it (the last bin also holds
    // what comes later: an open end).
    const at = function (bin) {
      return '@' + (BigInt(timeline.origin) + BigInt(bin) * BigInt(timeline.width)) + 'ns';
    };
    const command = state.t ? '--time ' + at(state.t[0]) + '..' +
      (state.t[1] < timeline.bins ? at(state.t[1]) : '') : '';
    $('timeline-note').textContent = timeline.samples + ' timed samples in ' + timeline.bins +
      ' bins of ' + offset(1) + ' per row (binned).' + (state.t ? ' Selected: ' + offset(state.t[0]) +
      '..' + offset(state.t[1]) + ' from the first sample (' + command + ').' :
      ' Drag across to select a time range.');
    $('timeline-note').dataset.time = command;
    $('timeline-clear').classList.toggle('hide', !state.t);
    $('timeline-clear').href = link({t: null});
    // The brush: bins under the drag, snapped to bin edges.
    const binAt = function (event) {
      const r = box.getBoundingClientRect();
      const x = (event.clientX - r.left) * width / r.width - labelWidth;
      return Math.min(timeline.bins, Math.max(0, x / binWidth));
    };
    box.onmousedown = function (event) {
      const start = binAt(event);
      const band = add('rect', {x: labelWidth + start * binWidth, y: 0, width: 0, height: height,
                                class: 'brush'});
      box.onmousemove = function (move) {
        const now = binAt(move);
        band.setAttribute('x', labelWidth + Math.min(start, now) * binWidth);
        band.setAttribute('width', Math.abs(now - start) * binWidth);
      };
      box.onmouseup = function (up) {
        box.onmousemove = box.onmouseup = null;
        const end = binAt(up);
        const a = Math.floor(Math.min(start, end)), b = Math.ceil(Math.max(start, end));
        go({t: b > a ? [a, b] : null});
      };
    };
  }

  function draw() {
    const state = readState();
    active = activeData(state);
    drawTimeline(state);
    ['top', 'flame', 'seq'].forEach(function (view) {
      $('view-' + view).classList.toggle('hide', view !== state.view);
      $('tab-' + view).classList.toggle('active', view === state.view);
      $('tab-' + view).href = link({view: view});
    });
    $('type').value = String(state.type);
    drawHeader(state);
    if (state.view === 'top') drawLists(state);
    if (state.view === 'flame') drawFlame(state);
    if (state.view === 'seq') drawSequence(state);
  }

  data.types.forEach(function (type, i) {
    const option = document.createElement('option');
    option.value = String(i);
    option.textContent = type.type + ' (' + type.unit + ')';
    $('type').appendChild(option);
  });
  $('type').addEventListener('change', function () { go({type: Number($('type').value)}); });
  $('top-search').addEventListener('change', function () { go({q: $('top-search').value}); });
  $('flame-search').addEventListener('change', function () { go({q: $('flame-search').value}); });
  $('icicle').addEventListener('change', function () { go({icicle: $('icicle').checked}); });
  window.addEventListener('hashchange', draw);
  // For tests/browser/: the pure functions the views rest on.
  window.proftoolsReport = {formatValue: formatValue, formatPercent: formatPercent,
                            occurrences: occurrences};
  window.addEventListener('resize', function () { if (readState().view === 'flame') draw(); });
  document.title = document.title || 'Profile';
  draw();
})();
