/* main.c: the worked example's program (golden/inputs/worked-example.prof names its lines). */
#include <stdio.h>

int leaf(void);

static int total;

/* main (line 10) calls compute, which calls leaf (inlined at line 25). */

int main(void) {
  int i;
  for (i = 0; i < 1000; i++) total += compute(i);
  printf("%d\n", total);
  return 0;
}




int compute(int n) {
  int sum = 0;
  int k;
  for (k = 0; k < n; k++) {
    sum += k;
    sum += leaf();
  }
  return sum;
}
