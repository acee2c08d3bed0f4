// A Node program with known functions, profiled with node --prof (tests/v8log/record.sh and
// tests/interop-v8log.sh): `spin` burns CPU for the milliseconds it is given (Date.now in a
// loop), `fib` recurses, `build` allocates arrays.
// Usage: node --prof workload.js [SCALE]   (the milliseconds multiply by SCALE, default 1)
'use strict';
const scale = Number(process.argv[2] || 1);

function spin(ms) {
  const end = Date.now() + ms;
  let n = 0;
  while (Date.now() < end) n++;
  return n;
}

function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

function build(n) {
  const rows = [];
  for (let i = 0; i < n; i++) rows.push([i, String(i), { i }]);
  return rows.length;
}

function main() {
  for (let i = 0; i < 3; i++) spin(60 * scale);
  fib(25);
  build(20000 * scale);
}

main();
