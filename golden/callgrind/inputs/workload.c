/* The workload golden/callgrind records with valgrind (record.sh): functions with known call
 * counts, so that the tests can assert what callgrind counted exactly.
 *   leaf:      called 300 times: 200 from caller_a, 100 from caller_b
 *   fact:      recursive: called once from main with 12, so 12 calls in all (11 recursive)
 *   spin:      the thread function: 2 threads alive together (a barrier: so valgrind gives them
 *              thread ids 2 and 3), each calls burn once: 1000 rounds and 3000 rounds
 *   burn:      called once per thread (2 calls)
 */
#include <pthread.h>
#include <stdio.h>

static volatile unsigned long sink;
static pthread_barrier_t together;

__attribute__((noinline)) unsigned long leaf(unsigned long x) {
  unsigned long s = 0;
  for (unsigned long i = 0; i < 50; ++i) s += x * i;
  return s;
}

__attribute__((noinline)) void caller_a(void) {
  for (int i = 0; i < 200; ++i) sink += leaf((unsigned long)i);
}

__attribute__((noinline)) void caller_b(void) {
  for (int i = 0; i < 100; ++i) sink += leaf((unsigned long)i * 3);
}

__attribute__((noinline)) unsigned long fact(unsigned long n) {
  return n <= 1 ? 1 : n * fact(n - 1);
}

__attribute__((noinline)) void burn(unsigned long rounds) {
  for (unsigned long i = 0; i < rounds; ++i) sink += i ^ (i >> 3);
}

static void* spin(void* arg) {
  pthread_barrier_wait(&together);
  burn((unsigned long)arg);
  return NULL;
}

int main(void) {
  caller_a();
  caller_b();
  sink += fact(12);
  pthread_t threads[2];
  pthread_barrier_init(&together, NULL, 2);
  pthread_create(&threads[0], NULL, spin, (void*)1000UL);
  pthread_create(&threads[1], NULL, spin, (void*)3000UL);
  pthread_join(threads[0], NULL);
  pthread_join(threads[1], NULL);
  printf("%lu\n", (unsigned long)sink);
  return 0;
}
