// prof-html's script: reads the profile embedded as JSON (stacks, root first, with their sums
// per value type) and draws the views from it. Every view follows the URL fragment
// (#view=...&type=...&seq=...), so the back button, links and bookmarks work offline.
(function () {
  'use strict';
  const data = JSON.parse(document.getElementById('profile-data').textContent);
  const frames = data.frames.map(function (f) { return {name: f[0], kind: f[1], source: f[2]}; });
  // Per value type, the call graph Graphviz laid out when the page was written (html_graphs.h):
  // {viewBox, svg} or {note}; none on a page without the view (--no-graph, --diff-base).
  const graphElement = document.getElementById('graph-data');
  const graphData = graphElement ? JSON.parse(graphElement.textContent) : null;
  const views = graphData ? ['top', 'flame', 'graph', 'seq'] : ['top', 'flame', 'seq'];

  // --- the packed numbers (html_report.cc, PackedWriter) ----------------------------------------
  // Strings of the 88 printable ASCII characters from '#' that need no escape in JSON or HTML:
  // a number is its base-44 digits, least significant first, each but the last written as
  // 44 + digit; a signed one zigzagged (0, -1, 1, -2 ... as 0, 1, 2, 3 ...); a frame index is
  // `data.frameDigits` base-88 digits, most significant first.
  const kDigit = new Int8Array(128).fill(-1);
  (function () {
    let n = 0;
    for (let c = 35; c < 127; c++) if (c !== 38 && c !== 60 && c !== 62 && c !== 92) kDigit[c] = n++;
  })();
  function packed(text) {
    let at = 0;
    const next = function () {
      let value = 0, scale = 1;
      for (;;) {
        const d = kDigit[text.charCodeAt(at++)];
        if (d < 44) return value + d * scale;
        value += (d - 44) * scale;
        scale *= 44;
      }
    };
    return {
      more: function () { return at < text.length; },
      next: next,
      signed: function () { const z = next(); return z % 2 ? -(z + 1) / 2 : z / 2; },
      frame: function () {
        let v = 0;
        for (let i = 0; i < data.frameDigits; i++) v = v * 88 + kDigit[text.charCodeAt(at++)];
        return v;
      },
    };
  }
  // Each type's values were written divided by data.scales[type] (the greatest common divisor
  // of its values: exact).
  function readValues(reader) {
    return data.types.map(function (t, i) { return reader.signed() * data.scales[i]; });
  }

  // Stacks (root first) with their sums per type; seq: the frames the sequence view reads,
  // directly repeated cycles collapsed as prof-text --peek-seq reads them (sent only when they
  // differ); base: with --diff-base, the base's sums.
  const stacks = (function () {
    const list = [];
    const f = packed(data.stackFrames), v = packed(data.stackValues), q = packed(data.stackSeq);
    const b = data.diff ? packed(data.stackBase) : null;
    for (let i = 0; i < data.stackCount; i++) {
      const path = new Array(f.next());
      for (let k = 0; k < path.length; k++) path[k] = f.frame();
      let seq = path;
      const n = q.next();
      if (n > 0) {
        seq = new Array(n);
        for (let k = 0; k < n; k++) seq[k] = q.frame();
      }
      list.push({index: i, frames: path, values: readValues(v), seq: seq,
                 base: b ? readValues(b) : null});
    }
    return list;
  })();
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

  // `x` with two decimals as C's printf("%.2f") writes it: an exact tie (2.125) goes to the even
  // digit (2.12), where toFixed rounds it up; the rest as toFixed.
  function fixed2(x) {
    const magnitude = Math.abs(x);
    let text = magnitude.toFixed(2);
    const exact = magnitude.toFixed(40);  // the binary value's own digits, far enough to see a tie
    const dot = exact.indexOf('.');
    if (/^50*$/.test(exact.slice(dot + 3))) {
      const down = exact.slice(0, dot + 3);
      if (Number(down[down.length - 1]) % 2 === 0) text = down;
    }
    return (x < 0 ? '-' : '') + text;
  }

  function scaled(base, scales) {
    let pick = 0;
    scales.forEach(function (s, i) { if (Math.abs(base) >= s[1]) pick = i; });
    let text = fixed2(base / scales[pick][1]);
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
    return total === 0 ? '-' : fixed2(100 * value / total) + '%';
  }

  // --- state in the URL fragment -------------------------------------------------------------
  // A brushed range of timeline bins, "A-B" (bins A to B-1), or null.
  function brushOf(text) {
    const match = /^(\d+)-(\d+)$/.exec(text || '');
    if (!match || !data.timeline) return null;
    const a = Number(match[1]), b = Number(match[2]);
    const step = data.timeline.step;
    // On the brush's bins: multiples of `step` bins of the drawing (the last may be short).
    const edge = function (bin) { return bin % step === 0 || bin === data.timeline.bins; };
    return a < b && b <= data.timeline.bins && edge(a) && edge(b) ? [a, b] : null;
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
      view: views.includes(params.get('view')) ? params.get('view') : 'top',
      type: type,
      seq: names('seq'),
      zoom: names('zoom'),
      icicle: params.get('icicle') === '1',
      q: params.get('q') || '',
      sort: params.get('sort') || '',
      all: params.get('all') === '1',
      t: brushOf(params.get('t')),
    };
  }

  // The fragment of the state `base` (by default the current one) with `changes`.
  function link(changes, base) {
    const state = Object.assign({}, base || readState(), changes);
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
    if (state.all) parts.push('all=1');
    if (state.t) parts.push('t=' + state.t[0] + '-' + state.t[1]);
    return '#' + parts.join('&');
  }

  function go(changes) { location.hash = link(changes); }

  // --- sums -----------------------------------------------------------------------------------
  // What the views sum: every stack, or within a time brush the parts of samples in the brushed
  // bins (the timeline cut long samples as prof-filter --time cuts them); totals are sums of
  // magnitudes, as prof-text's.
  let active = {stacks: stacks, totals: data.totals};

  // The timeline's sums per stack and brush bin (timeline.step bins of the drawing each), decoded
  // once: entry i is stack entryStack[i] in brush bin entryBin[i], values entryValues[i * types +
  // type].
  const brushData = (function () {
    if (!data.timeline) return null;
    const types = data.types.length;
    const stack = [], bin = [], values = [];
    // Per brush bin with entries: the bin from the previous one's, the number of its entries,
    // each entry's stack from the previous one's and its values.
    const r = packed(data.timeline.entries);
    let b = 0;
    while (r.more()) {
      b += r.next();
      const count = r.next();
      let s = 0;
      for (let k = 0; k < count; k++) {
        s += r.next();
        stack.push(s);
        bin.push(b);
        const v = readValues(r);
        for (let t = 0; t < types; t++) values.push(v[t]);
      }
    }
    return {stack: stack, bin: bin, values: values, types: types};
  })();

  function activeData(state) {
    if (!state.t) return {stacks: stacks, totals: data.totals};
    const byStack = new Map();
    const totals = data.types.map(function () { return 0; });
    const step = data.timeline.step;
    const from = state.t[0] / step, to = state.t[1] / step;
    const types = brushData.types;
    for (let e = 0; e < brushData.bin.length; e++) {
      if (brushData.bin[e] < from || brushData.bin[e] >= to) continue;
      let values = byStack.get(brushData.stack[e]);
      if (!values) {
        values = totals.map(function () { return 0; });
        byStack.set(brushData.stack[e], values);
      }
      for (let i = 0; i < types; i++) {
        const v = brushData.values[e * types + i];
        values[i] += v;
        totals[i] += Math.abs(v);
      }
    }
    const list = Array.from(byStack.keys()).sort(function (a, b) { return a - b; })
      .map(function (id) {
        return {index: id, frames: stacks[id].frames, values: byStack.get(id),
                seq: stacks[id].seq, base: null};
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

  // A frame's name as a link: elided in the middle as the flame graph's labels are (fitName:
  // template arguments first, the end kept), so that rows of std::_Rb_tree<...> do not read
  // alike; the full name (and source) on hover, and in data-name.
  const kNameChars = 60;
  function frameLink(id, href) {
    const a = document.createElement('a');
    const name = frames[id].name;
    a.textContent = fitName(name, kNameChars);
    a.dataset.name = name;
    a.href = href;
    a.className = 'frame';
    a.title = name + (frames[id].source ? '\n' + frames[id].source : '');
    return a;
  }

  const kListRows = 200;

  // The last row of a list cut at kListRows: how many rows are left out, and a link to all.
  function moreRow(more, columns, state) {
    const tr = document.createElement('tr');
    tr.className = 'more';
    const td = cell('', 'name');
    td.colSpan = columns;
    const a = document.createElement('a');
    a.textContent = more + ' more rows: show all';
    a.href = link({all: true}, state);
    td.appendChild(a);
    tr.appendChild(td);
    return tr;
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
      let shown = 0, more = 0;
      rows.forEach(function (id) {
        running += sums.flat[id];
        if (re && !re.test(frames[id].name)) return;
        // The first kListRows rows, unless all are asked for: a profile of thousands of
        // functions must not cost a second per change.
        if (!state.all && shown >= kListRows) { more++; return; }
        shown++;
        const tr = document.createElement('tr');
        tr.appendChild(cell(formatValue(sums.flat[id], unit)));
        tr.appendChild(cell(formatPercent(sums.flat[id], t)));
        tr.appendChild(cell(formatPercent(running, t)));
        tr.appendChild(cell(formatValue(sums.cum[id], unit)));
        tr.appendChild(cell(formatPercent(sums.cum[id], t)));
        const name = cell('', 'name');
        name.appendChild(frameLink(id, link({view: 'seq', seq: [id]}, state)));
        tr.appendChild(name);
        body.appendChild(tr);
      });
      if (more > 0) body.appendChild(moreRow(more, 6, state));
      table.appendChild(body);
    });
  }

  // --- flame graph ----------------------------------------------------------------------------
  // The tree of stacks merged from the root, children by name, as prof-svg draws it.
  // The tree of every stack merged from the root, children by name, as prof-svg draws it: its
  // shape built once (stackNodes: each stack's nodes, root first), its values summed again for
  // each type and time window (flameTree), which costs a pass over the stacks and no lookup.
  let shape = null;
  function flameShape() {
    if (shape) return shape;
    const root = {id: -1, value: 0, base: 0, children: new Map(), parent: null};
    const nodes = [root];
    const stackNodes = stacks.map(function (s) {
      const path = new Array(s.frames.length);
      let node = root;
      s.frames.forEach(function (f, k) {
        let child = node.children.get(f);
        if (!child) {
          child = {id: f, value: 0, base: 0, children: new Map(), parent: node};
          node.children.set(f, child);
          nodes.push(child);
        }
        path[k] = child;
        node = child;
      });
      return path;
    });
    shape = {root: root, nodes: nodes, stackNodes: stackNodes};
    return shape;
  }

  // The tree's values for a type (and the active time window). Stacks of value ≤ 0 are not
  // drawn (a width cannot be negative). With --diff-base the stacks' values are differences:
  // the graph is drawn with this profile's values (difference plus base) and each node also
  // sums the base's (as prof-svg --diff-base: frames only the base has are not drawn, as their
  // value is 0).
  function flameTree(type) {
    const tree = flameShape();
    tree.nodes.forEach(function (n) { n.value = 0; n.base = 0; });
    const root = tree.root;
    active.stacks.forEach(function (s) {
      const v = s.base ? s.values[type] + s.base[type] : s.values[type];
      const path = tree.stackNodes[s.index];
      if (path.length === 0) return;
      if (v > 0) {
        root.value += v;
        for (let k = 0; k < path.length; k++) path[k].value += v;
      }
      if (s.base && s.base[type] !== 0) {
        root.base += s.base[type];
        for (let k = 0; k < path.length; k++) path[k].base += s.base[type];
      }
    });
    return root;
  }

  // A node's children in name order (sorted once: the order does not depend on values).
  function sortedChildren(node) {
    if (!node.sorted) {
      node.sorted = Array.from(node.children.values()).sort(function (a, b) {
        const x = frames[a.id].name, y = frames[b.id].name;
        return x < y ? -1 : x > y ? 1 : 0;
      });
    }
    return node.sorted;
  }

  // `name` cut to `chars` characters as prof-svg labels frames (web/fit-name.js).
  const fitName = proftoolsFitName;

  function hue(name, kind) {
    let h = 2166136261;
    for (let i = 0; i < name.length; i++) { h ^= name.charCodeAt(i); h = Math.imul(h, 16777619); }
    const a = ((h >>> 0) & 0xffff) / 65536, b = ((h >>> 16) & 0xffff) / 65536;
    if (kind === 'kernel') return 'rgb(' + (190 + 65 * a | 0) + ',' + (90 + 65 * a | 0) + ',0)';
    if (kind === 'jit') return 'rgb(' + (50 + 60 * a | 0) + ',' + (200 + 55 * a | 0) + ',' + (50 + 60 * a | 0) + ')';
    if (kind === 'inlined') return 'rgb(' + (50 + 60 * a | 0) + ',' + (165 + 55 * a | 0) + ',' + (165 + 55 * a | 0) + ')';
    return 'rgb(' + (205 + 50 * b | 0) + ',' + (230 * a | 0) + ',' + (55 * b | 0) + ')';
  }

  // FlameGraph's differential colouring (DiffColor in flame_palette.cc): red grew, blue shrank.
  function diffColor(value, base, maxChange) {
    if (value === base || maxChange <= 0) return 'rgb(255,255,255)';
    const change = value - base;
    const depth = 210 * Math.min(1, Math.abs(change) / maxChange);
    const c = Math.floor(255 - depth);  // truncated as Rgb truncates
    return change > 0 ? 'rgb(255,' + c + ',' + c + ')' : 'rgb(' + c + ',' + c + ',255)';
  }

  // The tree is rebuilt only when what it sums changes (type, time window), not on a search,
  // zoom or icicle switch.
  let treeCache = {key: null, root: null};

  // Frames narrower than this many pixels are not drawn one by one: a run of them under one
  // parent is one grey rectangle ("N narrow frames"), so that a graph of 20,000 stacks draws
  // what can be seen (hundreds of rectangles, not 80,000) and each change stays fast.
  const kMinFrameWidth = 1;

  function drawFlame(state) {
    const svg = $('flame');
    const unit = data.types[state.type].unit;
    const key = state.type + '/' + (state.t ? state.t.join('-') : '');
    if (treeCache.key !== key) treeCache = {key: key, root: flameTree(state.type)};
    const root = treeCache.root;
    // The zoomed node: the path of names from the root, as far as it exists.
    let focus = root;
    for (const id of state.zoom) {
      const next = focus.children.get(id);
      if (!next || next.value <= 0) break;
      focus = next;
    }
    $('flame-reset').classList.toggle('hide', focus === root);
    $('flame-reset').href = link({zoom: []});
    $('icicle').checked = state.icicle;
    $('flame-search').value = state.q;
    let re = null;
    try { re = state.q ? new RegExp(state.q) : null; } catch (e) { re = null; }
    // Which frames match, tested once per frame rather than once per node.
    const hits = re ? frames.map(function (f) { return re.test(f.name); }) : null;
    const width = Math.max(400, svg.clientWidth || document.body.clientWidth - 32);
    const rowHeight = 16;
    const rows = [];  // [node, depth, x, width, isAncestor, merged count]
    const ancestors = [];
    for (let n = focus; n; n = n.parent) ancestors.unshift(n);
    ancestors.forEach(function (n, depth) { rows.push([n, depth, 0, width, n !== focus, 0]); });
    const scale = focus.value > 0 ? width / focus.value : 0;
    let maxDepth = ancestors.length - 1;
    const walk = function (node, depth, x) {
      let run = null;  // narrow children side by side: [x, width, count, value]
      const flush = function () {
        if (run && run[1] >= kMinFrameWidth) {
          rows.push([{id: -2, value: run[3], parent: node, base: run[4]}, depth, run[0], run[1],
                     false, run[2]]);
          maxDepth = Math.max(maxDepth, depth);
        }
        run = null;
      };
      sortedChildren(node).forEach(function (child) {
        const w = child.value * scale;
        if (w >= kMinFrameWidth) {
          flush();
          rows.push([child, depth, x, w, false, 0]);
          maxDepth = Math.max(maxDepth, depth);
          walk(child, depth + 1, x);
        } else if (w > 0) {
          if (!run) run = [x, 0, 0, 0, 0];
          run[1] += w;
          run[2] += 1;
          run[3] += child.value;
          run[4] += child.base || 0;
        }
        x += w;
      });
      flush();
    };
    walk(focus, ancestors.length, 0);
    // The largest change of a drawn frame, for the differential colours.
    let maxChange = 0;
    if (data.diff) {
      rows.forEach(function (row) {
        if (row[5] === 0) maxChange = Math.max(maxChange, Math.abs(row[0].value - row[0].base));
      });
    }
    const height = (maxDepth + 1) * rowHeight;
    svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
    svg.setAttribute('height', height);
    const t = root.value;
    const parts = [];
    const escape = function (text) {
      return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;');
    };
    rows.forEach(function (row, i) {
      const node = row[0], depth = row[1], x = row[2], w = row[3], merged = row[5];
      const y = state.icicle ? depth * rowHeight : height - (depth + 1) * rowHeight;
      const name = merged ? '' : node.id < 0 ? 'all' : frames[node.id].name;
      const hit = hits && node.id >= 0 && hits[node.id];
      const fill = merged ? 'rgb(200,200,200)' : hit ? 'rgb(230,0,230)'
        : data.diff && node.id >= 0 ? diffColor(node.value, node.base, maxChange)
          : node.id < 0 ? 'rgb(230,200,0)' : hue(name, frames[node.id].kind);
      const chars = Math.floor(w / 7);
      const label = merged ? (chars >= 3 ? fitName(merged + ' narrow frames', chars) : '')
        : fitName(name, chars);
      parts.push('<g class="f' + (row[4] ? ' parent' : '') + (merged ? ' merged' : '') +
        '" data-i="' + i + '" data-v="' + node.value + '" data-name="' + escape(name) +
        '"><rect x="' + x.toFixed(2) + '" y="' + y + '" width="' + w.toFixed(2) + '" height="' +
        (rowHeight - 1) + '" rx="2" fill="' + fill + '"/>' + (label ? '<text x="' +
        (x + 3).toFixed(2) + '" y="' + (y + 12) + '">' + escape(label) + '</text>' : '') +
        '</g>');
    });
    // One string parsed once: far faster than an element and two listeners per frame.
    svg.innerHTML = parts.join('');
    const details = function (row) {
      const node = row[0];
      if (row[5]) {
        return row[5] + ' frames, each narrower than ' + kMinFrameWidth + ' px: zoom in to see ' +
          'them\n' + formatValue(node.value, unit) + ' (' + formatPercent(node.value, t) + ')';
      }
      const name = node.id < 0 ? 'all' : frames[node.id].name;
      let text = name + '\n' + formatValue(node.value, unit) + ' (' +
        formatPercent(node.value, t) + ')';
      if (data.diff) {
        const change = node.value - node.base;
        text += ', was ' + formatValue(node.base, unit) + ' (' + (change > 0 ? '+' : '') +
          formatValue(change, unit) + ')';
      }
      return text + (node.id >= 0 && frames[node.id].source ? '\n' + frames[node.id].source : '');
    };
    const rowOf = function (event) {
      const g = event.target.closest ? event.target.closest('g.f') : null;
      return g ? rows[Number(g.dataset.i)] : null;
    };
    svg.onmouseover = function (event) {
      const row = rowOf(event);
      if (row) $('flame-details').textContent = details(row);
    };
    svg.onclick = function (event) {
      const row = rowOf(event);
      if (!row) return;
      const zoom = [];
      // A run of narrow frames zooms into their parent.
      for (let n = row[5] ? row[0].parent : row[0]; n && n.id >= 0; n = n.parent) {
        zoom.unshift(n.id);
      }
      go({zoom: zoom});
    };
    // The matched share, over the whole graph (drawn or not): each matching frame without a
    // matching caller.
    let matched = 0;
    if (hits) {
      // The same as summing each matching node without a matching caller, in one pass.
      active.stacks.forEach(function (s) {
        const v = s.base ? s.values[state.type] + s.base[state.type] : s.values[state.type];
        if (v <= 0) return;
        for (let k = 0; k < s.frames.length; k++) {
          if (hits[s.frames[k]]) { matched += v; break; }
        }
      });
    }
    $('flame-matched').textContent = re ? 'Matched: ' + formatPercent(matched, t) : '';
    $('flame-matched').dataset.matched = re ? String(matched) : '';
  }

  // --- call graph view -----------------------------------------------------------------------
  // Each type's graph is built once, on its first showing, from Graphviz's drawing (parsed as the
  // XML it is), and kept with its pan and zoom. A box whose function is on the page opens that
  // function's sequence view when clicked.
  const graphs = [];
  const xlink = 'http://www.w3.org/1999/xlink';

  function buildGraph(entry) {
    const text = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="' + xlink +
      '" viewBox="' + entry.viewBox + '"><g id="viewport" transform="matrix(1 0 0 1 0 0)">' +
      entry.svg + '</g></svg>';
    const parsed = new DOMParser().parseFromString(text, 'image/svg+xml');
    if (parsed.querySelector('parsererror')) return null;
    const svg = document.importNode(parsed.documentElement, true);
    const control = proftoolsPanZoom(svg, svg.querySelector('#viewport'), function () {
      const focus = document.activeElement;
      return svg.isConnected && readState().view === 'graph' &&
        !(focus && (focus.tagName === 'INPUT' || focus.tagName === 'SELECT'));
    });
    svg.querySelectorAll('g.node').forEach(function (node) {
      // Graphviz's tooltip of a box is pprof's "NAME (CUM)".
      const anchor = node.querySelector('a');
      const tooltip = anchor ? anchor.getAttributeNS(xlink, 'title') || '' : '';
      const id = idByName.get(tooltip.replace(/ \([^()]*\)$/, ''));
      if (id === undefined) return;
      node.classList.add('linked');
      node.addEventListener('click', function () {
        if (!control.dragged()) go({view: 'seq', seq: [id]});
      });
    });
    return svg;
  }

  function drawGraph(state) {
    const box = $('graph');
    const entry = graphData[state.type];
    let note = state.t ? 'The call graph shows the whole profile: it was laid out when the ' +
      'page was written, and the selected time range does not apply to it. ' : '';
    if (entry && entry.note) note += entry.note;
    if (entry && !entry.note && graphs[state.type] === undefined) {
      graphs[state.type] = buildGraph(entry);
      if (graphs[state.type] === null) note += 'The call graph could not be read.';
    }
    $('graph-note').textContent = note;
    const svg = graphs[state.type];
    if (!svg) {
      box.textContent = '';
    } else if (box.firstChild !== svg) {
      box.textContent = '';
      box.appendChild(svg);
    }
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
      const entries = Array.from(map.entries())
        .sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; });
      // As the lists: the first kListRows rows, then a link to all of them.
      const shown = state.all ? entries : entries.slice(0, kListRows);
      shown.forEach(function (entry) {
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
      if (shown.length < entries.length) {
        table.appendChild(moreRow(entries.length - shown.length, 3, state));
      }
    };
    fill($('seq-callers'), callers, function (id) { return [id].concat(seq); });
    fill($('seq-callees'), callees, function (id) { return seq.concat([id]); });
  }

  // --- source pane ----------------------------------------------------------------------------
  // With prof-html --source-path: the lines of the selected function (the last frame of the
  // sequence view's sequence, or of the flame graph's zoom; a list's row opens its sequence
  // view), each with its flat and cum values as prof-text --list gives them, over the whole
  // profile (the page made them; a time brush does not change them). The page holds the lines
  // of at most limits[0] functions (the largest by cumulative value), limits[1] lines of a file
  // beyond which only those around lines with values, limits[2] bytes of text.
  const sourceByFrame = data.source ?
    new Map(data.source.functions.map(function (f) { return [f[0], f[1]]; })) : null;

  function selectedFrame(state) {
    const list = state.view === 'seq' ? state.seq : state.view === 'flame' ? state.zoom : [];
    return list.length ? list[list.length - 1] : -1;
  }

  function drawSource(state) {
    const id = sourceByFrame ? selectedFrame(state) : -1;
    $('source').classList.toggle('hide', id < 0);
    const box = $('source-files');
    box.textContent = '';
    if (id < 0) return;
    const unit = data.types[state.type].unit;
    const type = state.type;
    const dot = function (v) { return v === 0 ? '.' : formatValue(v, unit); };
    $('source-name').textContent = frames[id].name;
    const notes = [];
    if (state.t) notes.push('Values over the whole profile, not the selected time.');
    const files = sourceByFrame.get(id);
    if (!files) {
      notes.push(data.source.left > 0 ?
        'No source lines in the page for this frame: it has no file, or it is not among the ' +
        data.source.limits[0] + ' functions with the largest cumulative values, whose lines ' +
        'the page holds.' : 'No source lines for this frame: the profile gives it no file.');
    }
    $('source-note').textContent = notes.join(' ');
    (files || []).forEach(function (f) {
      const file = data.source.files[f[0]];
      const title = document.createElement('h3');
      title.textContent = file[0] + ': flat ' + formatValue(f[1][type], unit) + ', cum ' +
        formatValue(f[2][type], unit) + ' (' + formatPercent(f[2][type], total(type)) +
        ' of the total)';
      box.appendChild(title);
      if (file[1]) {
        const missing = document.createElement('p');
        missing.className = 'missing';
        missing.textContent = 'Source not shown: ' + file[1] + ' when the page was made. ' +
          'The lines with values are listed without their text.';
        box.appendChild(missing);
      }
      const table = document.createElement('table');
      table.dataset.file = file[0];
      const head = document.createElement('tr');
      ['flat', 'cum', 'line', 'source'].forEach(function (title) {
        const th = document.createElement('th');
        th.textContent = title;
        head.appendChild(th);
      });
      table.appendChild(head);
      const body = document.createDocumentFragment();
      f[3].forEach(function (row) {
        const tr = document.createElement('tr');
        if (row[0] === 0) {
          tr.className = 'gap';
          tr.appendChild(cell('\u22ee'));
          body.appendChild(tr);
          return;
        }
        const flat = row[2][type], cum = row[3][type];
        tr.dataset.line = row[0];
        tr.dataset.flat = flat;
        tr.dataset.cum = cum;
        if (flat !== 0 || cum !== 0) tr.className = 'hot';
        tr.appendChild(cell(dot(flat)));
        tr.appendChild(cell(dot(cum)));
        tr.appendChild(cell(String(row[0])));
        tr.appendChild(cell(row[1] === 0 ? '' : row[1], 'text'));
        body.appendChild(tr);
      });
      table.appendChild(body);
      box.appendChild(table);
    });
  }

  // --- header and frame -----------------------------------------------------------------------
  function drawHeader(state) {
    const type = data.types[state.type];
    $('summary').textContent = type.type + '/' + type.unit + ': ' + (data.diff ?
      'the change from the base ' + data.base + ', whose total is ' +
      formatValue(total(state.type), type.unit) + ' (the lists: this profile minus the base, ' +
      'in % of the base\'s total; the flame graph: this profile, red where it grew, blue where ' +
      'it shrank)' : formatValue(total(state.type), type.unit) + ' total' +
      (state.t ? ' in the selected time' : ' in ' + data.samples + ' samples')) +
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
  // A time in nanoseconds from the first sample, as an axis labels it ("0s", "250ms", "1.5s").
  function axisTime(ns) { return ns === 0 ? '0s' : formatValue(ns, 'nanoseconds'); }

  const timelineSums = [];
  let timelineKey = null;
  function drawTimeline(state) {
    const timeline = data.timeline;
    const box = $('timeline');
    if (!timeline) { $('timeline-section').classList.add('hide'); return; }
    const labelWidth = 160, rowHeight = 18;
    const width = Math.max(400, box.clientWidth || document.body.clientWidth - 32);
    // Drawn again only when what it shows changes (not on a search or zoom).
    const key = [state.type, state.t ? state.t.join('-') : '', width].join('/');
    $('timeline-clear').href = link({t: null});
    if (key === timelineKey) return;
    timelineKey = key;
    const binWidth = (width - labelWidth) / timeline.bins;
    // Each row's bins, the darker the more value of the shown type (decoded once per type).
    if (!timelineSums[state.type]) timelineSums[state.type] = timeline.rows.map(function (row, i) {
      const bins = new Float64Array(timeline.bins);
      const r = packed(timeline.activity[i]);
      let bin = 0;
      while (r.more()) {
        bin += r.next();
        bins[bin] = Math.abs(readValues(r)[state.type]);
      }
      return bins;
    });
    const sums = timelineSums[state.type];
    // Only the rows with some of the shown type (a JFR recording's threads that only slept are
    // not rows of its CPU time); all of them when none has any.
    let shown = timeline.rows.map(function (names, row) { return row; }).filter(function (row) {
      return sums[row].some(function (v) { return v !== 0; });
    });
    if (shown.length === 0) shown = timeline.rows.map(function (names, row) { return row; });
    const height = shown.length * rowHeight;
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
    let max = 0;
    sums.forEach(function (bins) { bins.forEach(function (v) { max = Math.max(max, v); }); });
    shown.forEach(function (row, y) {
      const names = timeline.rows[row];
      // The thread's name and id; the source too on hover.
      const label = add('text', {x: 0, y: y * rowHeight + 13, class: 'row-label'});
      label.textContent = fitName(names[0], 26);
      add('title', {}, label).textContent = names[1];
      sums[row].forEach(function (v, bin) {
        if (v === 0) return;
        add('rect', {x: (labelWidth + bin * binWidth).toFixed(2), y: y * rowHeight + 2,
                     width: Math.max(1, binWidth).toFixed(2), height: rowHeight - 4,
                     fill: 'rgba(200,80,0,' + (0.25 + 0.75 * v / max).toFixed(3) + ')'});
      });
    });
    if (state.t) {
      add('rect', {x: (labelWidth + state.t[0] * binWidth).toFixed(2), y: 0,
                   width: ((state.t[1] - state.t[0]) * binWidth).toFixed(2), height: height,
                   class: 'brush'});
    }
    // The axis: time from the first sample, ticks at 1, 2 or 5 times a power of ten.
    const axis = $('timeline-axis');
    axis.setAttribute('viewBox', '0 0 ' + width + ' 22');
    axis.setAttribute('height', 22);
    axis.textContent = '';
    const span = timeline.bins * timeline.width;
    let tick = Math.pow(10, Math.floor(Math.log10(Math.max(1, span / 8))));
    while (span / tick > 8) tick *= tick.toString()[0] === '2' ? 2.5 : 2;
    add('line', {x1: labelWidth, x2: width, y1: 1, y2: 1}, axis);
    for (let at = 0; at <= span; at += tick) {
      const x = labelWidth + at / timeline.width * binWidth;
      add('line', {x1: x.toFixed(2), x2: x.toFixed(2), y1: 1, y2: 5}, axis);
      const text = add('text', {x: x.toFixed(2), y: 17, class: 'tick',
                                'text-anchor': at === 0 ? 'start' : x > width - 30 ? 'end'
                                  : 'middle'}, axis);
      text.textContent = axisTime(at);
    }
    add('text', {x: 0, y: 17}, axis).textContent = 'from the first sample';
    const offset = function (bin) { return formatValue(bin * timeline.width, 'nanoseconds'); };
    // The window on the sources' clock, as prof-filter --time takes it (the last bin also holds
    // what comes later: an open end).
    const at = function (bin) {
      return '@' + (BigInt(timeline.origin) + BigInt(bin) * BigInt(timeline.width)) + 'ns';
    };
    const command = state.t ? '--time ' + at(state.t[0]) + '..' +
      (state.t[1] < timeline.bins ? at(state.t[1]) : '') : '';
    const step = timeline.step;
    $('timeline-note').textContent = timeline.samples + ' timed samples in ' + timeline.bins +
      ' bins of ' + offset(1) + ' per row' + (step > 1 ? ', selected by ' + offset(step) : '') +
      '.' + (state.t ? ' Selected: ' + offset(state.t[0]) + '..' + offset(state.t[1]) +
      ' from the first sample (' + command + ').' : ' Drag across to select a time range.');
    $('timeline-note').dataset.time = command;
    $('timeline-clear').classList.toggle('hide', !state.t);
    $('timeline-clear').href = link({t: null});
    // The brush: bins under the drag, snapped to the brush's bin edges.
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
        const a = Math.floor(Math.min(start, end) / step) * step;
        const b = Math.min(timeline.bins, Math.ceil(Math.max(start, end) / step) * step);
        go({t: b > a ? [a, b] : null});
      };
    };
  }

  function draw() {
    const state = readState();
    active = activeData(state);
    drawTimeline(state);
    views.forEach(function (view) {
      $('view-' + view).classList.toggle('hide', view !== state.view);
      $('tab-' + view).classList.toggle('active', view === state.view);
      $('tab-' + view).href = link({view: view});
    });
    $('type').value = String(state.type);
    drawHeader(state);
    if (state.view === 'top') drawLists(state);
    if (state.view === 'flame') drawFlame(state);
    if (state.view === 'seq') drawSequence(state);
    if (state.view === 'graph') drawGraph(state);
    drawSource(state);
  }

  if (graphData) $('tab-graph').classList.remove('hide');
  else $('view-graph').classList.add('hide');
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
                            occurrences: occurrences, fitName: fitName,
                            stackFrames: function () {
                              return stacks.map(function (s) { return s.frames; });
                            }};
  window.addEventListener('resize', function () { if (readState().view === 'flame') draw(); });
  document.title = document.title || 'Profile';
  $('title').textContent = document.title;
  draw();
})();
