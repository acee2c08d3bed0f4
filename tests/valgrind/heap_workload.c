/* A heap workload with known allocations, for valgrind's massif and DHAT (tests/valgrind/
   record.sh records it; golden/massif and golden/dhat read the recordings):
   - make_table keeps 10 blocks of 1000 bytes, from main;
   - scratch allocates 8 blocks of 4096 bytes and frees each at once, 3 times, from work;
   - keep_forever leaks 5000 bytes, from work;
   - grow reallocs one block from 100 to 6400 bytes, doubling, from main, and frees it;
   - copy_rows copies the table's 10 blocks of 1000 bytes (DHAT's copy mode), from main. */
#include <stdlib.h>
#include <string.h>

static char *table[10];

__attribute__((noinline)) static void make_table(void) {
  for (int i = 0; i < 10; ++i) {
    table[i] = malloc(1000);
    memset(table[i], i, 1000);
  }
}

__attribute__((noinline)) static void scratch(void) {
  for (int i = 0; i < 8; ++i) {
    char *block = malloc(4096);
    memset(block, 1, 4096);
    free(block);
  }
}

__attribute__((noinline)) static char *keep_forever(void) {
  char *block = malloc(5000);
  memset(block, 2, 5000);
  return block;
}

__attribute__((noinline)) static void work(void) {
  for (int round = 0; round < 3; ++round) scratch();
  keep_forever();
}

__attribute__((noinline)) static void grow(void) {
  size_t size = 100;
  char *block = malloc(size);
  while (size < 6400) {
    size *= 2;
    block = realloc(block, size);
    memset(block, 3, size);
  }
  free(block);
}

__attribute__((noinline)) static void copy_rows(void) {
  static char row[1000];
  size_t size = sizeof row; /* not a constant: a call to memcpy, which DHAT sees */
  for (int i = 0; i < 10; ++i) memcpy(row, table[i], size);
}

int main(void) {
  make_table();
  copy_rows();
  work();
  grow();
  for (int i = 0; i < 10; ++i) free(table[i]);
  return 0;
}
