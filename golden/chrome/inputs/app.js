// A workload with known function names for golden/chrome (record.sh runs it under node's
// profilers): recursion (fib), an anonymous function (the callback of forEach), a busy loop of
// its own (spin), and a known idle wait (setTimeout, 200 ms) between them.
'use strict';

function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

function spin(ms) {
  const end = Date.now() + ms;
  let x = 0;
  while (Date.now() < end) x += Math.sqrt(x + 1);
  return x;
}

function main() {
  let total = fib(32);
  [1, 2, 3].forEach(function (k) {
    const end = Date.now() + 40;
    let y = k;
    while (Date.now() < end) y = (y * 31 + 7) % 1000003;
    total += y;
  });
  setTimeout(function wakeUp() {
    total += spin(60);
    console.log('done', total > 0);
  }, 200);
}

main();
