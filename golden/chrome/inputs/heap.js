// A workload with known allocations for golden/chrome (record.sh runs it under
// node --heap-prof): what each function allocates, and keeps alive until the profile is taken
// (V8's sampling heap profiler forgets samples whose objects die), from most to least:
//   makeArrays   2,000 arrays of 1,000 numbers: about 16 MB
//   makeStrings  10,000 strings of 400 characters: about 4 MB
//   makeTree     a binary tree 14 levels deep, recursive: 32,767 small objects, about 1 MB
//   the anonymous forEach callback (heap.js:24)  10,000 arrays of 3 numbers: about 0.3 MB
'use strict';
const keep = [];
globalThis.keep = keep;  // past the module's end: node takes the profile as it exits

function makeArrays(n) {
  for (let i = 0; i < n; i++) keep.push(new Array(1000).fill(i));
}

function makeStrings(n) {
  for (let i = 0; i < n; i++) keep.push(String(i).padEnd(400, '.'));
}

function makeTree(depth) {
  return depth === 0 ? { leaf: true } : { l: makeTree(depth - 1), r: makeTree(depth - 1) };
}

function main() {
  makeArrays(2000);
  makeStrings(10000);
  keep.push(makeTree(14));
  [1, 2].forEach(function (k) {
    for (let i = 0; i < 5000; i++) keep.push([k, i, k + i]);
  });
}

main();
