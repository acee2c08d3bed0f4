/* A CPU workload with known calls, for gprof (gcc -pg; tests/gprof/record.sh records it,
   golden/gprof reads the recording, tests/interop-gprof.sh compares with gprof afresh):
   - spin(n) burns n steps, the only function with much self time;
   - heavy calls spin with 3 units, light with 1 unit, each 40 times from main;
   - mix (static) is called by both, 40 times each, with 1 unit;
   - depth recurses 5 levels 10 times, each level spinning 1 unit (recursive arcs);
   - ping and pong call each other 4 levels 10 times (a cycle). */
#include <stdio.h>
#include <stdlib.h>

#define UNIT 1000000L

static volatile long sink;

__attribute__((noinline)) void spin(long steps) {
  long s = 0;
  for (long i = 0; i < steps; ++i) s += i ^ (s >> 3);
  sink = s;
}

__attribute__((noinline)) static void mix(void) { spin(UNIT); }

__attribute__((noinline)) void heavy(void) {
  spin(3 * UNIT);
  mix();
}

__attribute__((noinline)) void light(void) {
  spin(UNIT);
  mix();
}

__attribute__((noinline)) void depth(int level) {
  spin(UNIT);
  if (level > 1) depth(level - 1);
}

void pong(int level);

__attribute__((noinline)) void ping(int level) {
  spin(UNIT / 2);
  if (level > 0) pong(level - 1);
}

__attribute__((noinline)) void pong(int level) {
  spin(UNIT / 2);
  if (level > 0) ping(level - 1);
}

int main(void) {
  for (int i = 0; i < 40; ++i) {
    heavy();
    light();
  }
  for (int i = 0; i < 10; ++i) depth(5);
  for (int i = 0; i < 10; ++i) ping(4);
  printf("%ld\n", sink & 1);
  return 0;
}
