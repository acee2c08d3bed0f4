#!/usr/bin/env bash
# Writes a gprof recording for tests/bench/bench-gprof.sh into the directory DIR: `workload`, a C
# program of FUNCTIONS generated functions (gcc -pg -O0), and the gmon.out of one run of it.
# Each function spins a little and calls one of the FANOUT (default 50) functions after it, chosen
# pseudo-randomly, until a chain of 12 calls ends; main starts ITERATIONS chains from the first
# STARTS functions (default 100; 0: from every function in turn): thousands of functions with
# histogram samples, and call arcs between most neighbours. Deterministic but for the
# histogram's samples (the clock's). glibc's mcount keeps a bounded table of arcs: a program of
# many functions needs a small FANOUT or it writes no gmon.out.
#
# Usage: make-gprof.sh DIR FUNCTIONS ITERATIONS [FANOUT [STARTS]]
set -euo pipefail
dir=$1 functions=$2 iterations=$3 fanout=${4:-50} starts=${5:-100}
[ "$starts" -gt 0 ] || starts=$functions
mkdir -p "$dir"
cd "$dir"
{
  echo "#include <stdio.h>"
  echo "#define N $functions"
  echo "static volatile unsigned long sink;"
  echo "static unsigned long seed = 1;"
  echo "static void (*table[N])(int);"
  echo "#define WORK(steps) for (int k = 0; k < (steps); ++k) sink += k"
  echo "#define NEXT(i, d) do { if ((d) > 0) { seed = seed * 6364136223846793005UL + 1442695040888963407UL; \\"
  echo "  unsigned long n = (i) + 1 + (seed >> 33) % $fanout; if (n < N) table[n]((d) - 1); } } while (0)"
  for ((i = 0; i < functions; i++)); do
    echo "void f$i(int d) { WORK($((i * 7919 % 40 + 5))); NEXT($i, d); }"
  done
  echo "int main(void) {"
  for ((i = 0; i < functions; i++)); do echo "  table[$i] = f$i;"; done
  echo "  for (long m = 0; m < ${iterations}L; ++m) table[m % $starts](12);"
  echo "  printf(\"%lu\\n\", sink);"
  echo "  return 0;"
  echo "}"
} >workload.c
gcc -O0 -pg -o workload workload.c
rm -f gmon.out
./workload >/dev/null
rm workload.c
