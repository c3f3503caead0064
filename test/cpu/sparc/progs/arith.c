/* Integer arithmetic, logic, shifts, multiply/divide with Y, and every compare-and-branch shape. */
#include "lib.h"

static u32 seed = 12345;
static u32 rnd(void) {
  seed = seed * 1103515245u + 12345u;
  return seed ^ (seed >> 15);
}

static volatile i32 sink_i;

int main(int argc, char **argv) {
  (void)argv;
  u32 h = 0;
  static const i32 corner[] = {0, 1, -1, 2, -2, 7, -7, 0x7fffffff, (i32)0x80000000, 0xffff, 0x10000, 12345678, -98765};
  for (int i = 0; i < 13; i++) {
    for (int j = 0; j < 13; j++) {
      i32 a = corner[i], b = corner[j];
      u32 ua = (u32)a, ub = (u32)b;
      h = h * 31 + (u32)(a + b);
      h = h * 31 + (u32)(a - b);
      h = h * 31 + (u32)(a * b);
      h = h * 31 + (ua * ub);
      h = h * 31 + (u32)(((i64)a * b) >> 32);
      h = h * 31 + (u32)(((u64)ua * ub) >> 32);
      if (b != 0 && !(a == (i32)0x80000000 && b == -1)) {
        h = h * 31 + (u32)(a / b);
        h = h * 31 + (u32)(a % b);
      }
      if (ub != 0) {
        h = h * 31 + ua / ub;
        h = h * 31 + ua % ub;
      }
      h = h * 31 + (u32)(a << (b & 31)) + (u32)(a >> (b & 31)) + (ua >> (b & 31));
      h = h * 31 + (u32)(a & b) + (u32)(a | ~b) + (u32)(a ^ b);
      h = h * 31 + (a < b) * 1 + (a <= b) * 2 + (a > b) * 4 + (a >= b) * 8 + (a == b) * 16 + (a != b) * 32;
      h = h * 31 + (ua < ub) * 1 + (ua <= ub) * 2 + (ua > ub) * 4 + (ua >= ub) * 8;
      if (a + b < 0) h ^= 0x55;
      if ((i32)(a - b) >= 0) h += 3;
    }
  }
  put_str("corner ");
  put_hex(h);
  put_nl();
  for (int k = 0; k < 400 + argc; k++) {
    i32 a = (i32)rnd(), b = (i32)rnd() >> (k & 15);
    if (b == 0) b = 3;
    h += (u32)(a / b) ^ (u32)(a % b) ^ ((u32)a / (u32)b);
    h = (h << 3) | (h >> 29);
    if (a > b) h += 7; else if (a == b) h -= 1; else h ^= 9;
    if ((u32)a > (u32)b) h += 11;
  }
  sink_i = (i32)h;
  put_str("random ");
  put_hex(h);
  put_nl();
  flush_out();
  return (int)(h & 0x3f);
}
