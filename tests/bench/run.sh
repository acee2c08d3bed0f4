#!/usr/bin/env bash
# make bench: run every tests/bench/bench-*.sh in turn. Each prints its own figures; copy them
# into BENCHMARKS.md with the machine they were measured on.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/bin:$PWD/build/test-bin:$PATH"
echo "machine: $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
for bench in tests/bench/bench-*.sh; do
  echo
  echo "== $bench"
  "$bench"
done
