/*
 * ttest-sig: signal handlers in one process, for the tracer. Every signal is synchronous (there
 * is no second process and no timer), so its delivery point is the same on every run:
 *   - SIGUSR1 sent to itself, the handler touching memory through pointers;
 *   - a handler that raises another signal while it runs (nested handlers, SA_NODEFER);
 *   - a fault (a store to an unmapped page) whose handler leaves with siglongjmp;
 *   - a handler entered from deep recursion, leaving with longjmp past many frames.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile int hits;
static int cells[64];
static int *volatile cursor = cells;
static sigjmp_buf fault_env;
static jmp_buf deep_env;
static volatile int depth_at_signal;

static void on_usr1(int sig) {
  int i;
  for (i = 0; i < 64; i += 3) cells[i] += (sig == SIGUSR1 ? 5 : 1000) + i;
  *cursor++ = hits;
  hits++;
}

static void on_usr2(int sig) {
  hits += 10;
  if (hits < 60) kill(getpid(), SIGUSR2);  /* nested: SA_NODEFER lets it in */
  cells[hits & 63] ^= sig == SIGUSR2 ? 3 : 1000;
}

static void on_segv(int sig) {
  hits += 100;
  (void)sig;
  siglongjmp(fault_env, 1);
}

static void on_alrm(int sig) {
  (void)sig;
  longjmp(deep_env, depth_at_signal);
}

static volatile int acc;

static int descend(int n) {
  int local[4];
  local[n & 3] = n;
  acc += local[n & 3];
  if (n == 0) {
    depth_at_signal = acc;
    kill(getpid(), SIGALRM);
    return -1;  /* never reached: the handler leaves with longjmp */
  }
  return descend(n - 1) + local[n & 3];
}

int main(void) {
  struct sigaction sa;
  int i, r;

  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_usr1;
  sigaction(SIGUSR1, &sa, 0);
  for (i = 0; i < 12; i++) {
    cells[i] = i * 7;
    kill(getpid(), SIGUSR1);
  }
  printf("usr1: hits %d, cells[3] %d, cells[9] %d\n", hits, cells[3], cells[9]);

  sa.sa_handler = on_usr2;
  sa.sa_flags = SA_NODEFER;
  sigaction(SIGUSR2, &sa, 0);
  kill(getpid(), SIGUSR2);
  printf("usr2: hits %d\n", hits);

  sa.sa_handler = on_segv;
  sa.sa_flags = 0;
  sigaction(SIGSEGV, &sa, 0);
  for (i = 0; i < 3; i++) {
    if (sigsetjmp(fault_env, 1) == 0) {
      volatile int *bad = (volatile int *)16;
      *bad = i;
      printf("no fault\n");
    } else {
      printf("fault %d: hits %d\n", i, hits);
    }
  }

  sa.sa_handler = on_alrm;
  sigaction(SIGALRM, &sa, 0);
  r = setjmp(deep_env);
  if (r == 0) {
    descend(25);
    printf("not here\n");
  } else {
    printf("deep: longjmp returned %d, acc %d\n", r, acc);
  }
  return 0;
}
