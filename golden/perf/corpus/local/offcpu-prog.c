#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <time.h>
#include <sys/wait.h>

static volatile double sink;

static inline __attribute__((always_inline)) double inner_work(int i) {
  double x = 0;
  for (int k = 0; k < 200; ++k) x += (i ^ k) * 0.5;
  return x;
}
static inline __attribute__((always_inline)) double middle_work(int i) {
  return inner_work(i) + inner_work(i + 1);
}
__attribute__((noinline)) void compute(long n) {
  for (long i = 0; i < n; ++i) sink += middle_work((int)i);
}
__attribute__((noinline)) void sleeper(int ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}
__attribute__((noinline)) void pipe_wait(int ms) {
  int fd[2];
  if (pipe(fd)) exit(1);
  pid_t child = fork();
  if (child == 0) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
    if (write(fd[1], "x", 1) != 1) _exit(1);
    _exit(0);
  }
  char c;
  if (read(fd[0], &c, 1) != 1) exit(1);
  waitpid(child, NULL, 0);
}
int main(int argc, char** argv) {
  long n = argc > 1 ? atol(argv[1]) : 200000;
  compute(n);
  sleeper(100);
  pipe_wait(200);
  sleeper(50);
  return 0;
}
