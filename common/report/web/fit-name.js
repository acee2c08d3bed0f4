// A frame's name cut to `chars` characters, as prof-svg's writer labels frames (FitFrameLabel in
// flame_svg.cc): "" under 3 characters; names without `::` or `<` cut from the right as
// flamegraph.pl cuts them; others lose their template arguments first, then their middle, so
// that the end (the function's name) stays. Embedded before the scripts of both the SVG
// (flame-svg.js) and the HTML page (report.js), which are documents of their own.
function proftoolsFitName(name, chars) {
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
