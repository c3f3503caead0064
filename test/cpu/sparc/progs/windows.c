/* Deep and varying recursion: window overflow and underflow at every depth and CWP. */
#include "lib.h"

static int depth_max;

static int fib(int n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

/* Many live locals so gcc keeps them in %l/%i registers across the calls. */
static u32 deep(int n, u32 a, u32 b, u32 c, u32 d, u32 e) {
  u32 x = a * 3 + b, y = b ^ c, z = c + d * 5, w = d - e, v = e + n;
  if (n > depth_max) depth_max = n;
  if (n == 0) return x ^ y ^ z ^ w ^ v;
  u32 r = deep(n - 1, y, z, w, v, x);
  if (n % 3 == 0) r += deep(n / 3, v, w, x, y, z);
  return r + x * y + z * w + v;
}

static int ack(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return ack(m - 1, 1);
  return ack(m - 1, ack(m, n - 1));
}

int main(int argc, char **argv) {
  (void)argv;
  put_str("fib ");
  put_dec(fib(14 + argc));
  put_nl();
  for (int n = 1; n < 40; n += 3) {
    put_str("deep ");
    put_dec(n);
    put_str(" ");
    put_hex(deep(n, 1, 2, 3, 4, 5));
    put_nl();
  }
  put_str("ack ");
  put_dec(ack(2, 3));
  put_str(" max ");
  put_dec(depth_max);
  put_nl();
  flush_out();
  return 0;
}
