#!/usr/bin/env bash
# Writes FILE: about MB megabytes of folded stacks shaped like a large C++ service's
# (stackcollapse-perf.pl output): 50,000 distinct stacks 20 to 60 frames deep over 4,000 long
# template-heavy names, each stack on several lines in a scattered order, counts 1 to 999.
# Deterministic (awk's own generator with a fixed seed). Usage: make-folded.sh FILE MB
set -euo pipefail
out=$1
mb=${2:-500}
LC_ALL=C awk -v target="$((mb * 1000000))" 'BEGIN {
  srand(20261126)
  split("std::__1 boost::asio folly grpc::internal absl::container_internal app::rpc app::storage::lsm app::query::exec tcmalloc", ns, " ")
  split("Handler Session Reader Writer Executor Future<int> Promise<std::string> Buffer<char, 4096ul> Channel Table<std::pair<unsigned long, std::string>> RowIterator", cls, " ")
  split("operator() run dispatch process handle_read do_complete invoke Compact ScanRange Get Put", fn, " ")
  nf = 4000
  for (i = 0; i < nf; i++) {
    name[i] = ns[1 + int(rand() * 9)] "::" cls[1 + int(rand() * 10)] "<" ns[1 + int(rand() * 9)] "::" cls[1 + int(rand() * 10)] ">::" fn[1 + int(rand() * 10)] "(" cls[1 + int(rand() * 10)] " const&, unsigned long)#" i
  }
  # 50,000 stacks grown from 500 roots: each shares a prefix with an earlier one, as real
  # stacks share their callers.
  ns_ = 50000
  for (s = 0; s < ns_; s++) {
    depth = 20 + int(rand() * 41)
    if (s < 500) { line = "service;main"; d = 2 }
    else { p = int(rand() * s); n = split(stack[p], parts, ";"); keep = 2 + int(rand() * (n - 2)); line = parts[1]; for (k = 2; k <= keep; k++) line = line ";" parts[k]; d = keep }
    for (; d < depth; d++) line = line ";" name[int(rand() * nf)]
    stack[s] = line
  }
  total = 0
  while (total < target) {
    s = int(rand() * ns_)
    l = stack[s] " " (1 + int(rand() * 999))
    print l
    total += length(l) + 1
  }
}' >"$out"
