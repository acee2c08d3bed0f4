#!/usr/bin/env bash
# Writes a gprof recording for tests/bench/bench-gprof.sh into the directory DIR: `workload`, a C
# program of FUNCTIONS generated functions (gcc -pg -O0), and the gmon.out of one run of it.
# Each function spins a little and calls one of the 50 functions after it, chosen
# pseudo-randomly, until a chain of 12 calls ends; main starts ITERATIONS chains from the first
# 100 functions: thousands of functions with histogram samples, and call arcs between most
# neighbours. Deterministic but for the histogram's samples (the clock's).
#
# Usage: make-gprof.sh DIR FUNCTIONS ITERATIONS
set -euo pipefail
dir=$1 functions=$2 iterations=$3
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
  echo "  unsigned long n = (i) + 1 + (seed >> 33) % 50; if (n < N) table[n]((d) - 1); } } while (0)"
  for ((i = 0; i < functions; i++)); do
    echo "void f$i(int d) { WORK($((i * 7919 % 40 + 5))); NEXT($i, d); }"
  done
  echo "int main(void) {"
  for ((i = 0; i < functions; i++)); do echo "  table[$i] = f$i;"; done
  echo "  for (long m = 0; m < ${iterations}L; ++m) table[m % 100](12);"
  echo "  printf(\"%lu\\n\", sink);"
  echo "  return 0;"
  echo "}"
} >workload.c
gcc -O0 -pg -o workload workload.c
rm -f gmon.out
./workload >/dev/null
rm workload.c
