/* Floating point in single and double: arithmetic, conversions, comparisons, results as bits. */
#include "lib.h"

union fu { float f; u32 u; };
union du { double d; u32 w[2]; };

static u32 fbits(float f) { union fu x; x.f = f; return x.u; }
static u32 dhash(double d) { union du x; x.d = d; return x.w[0] * 31 + x.w[1]; }

static volatile double vd[] = {0.0, -0.0, 1.0, -1.5, 3.141592653589793, 1e300, -1e-300, 2.5e-310, 1e20, 123456789.0, 0.1, 7.0};
static volatile float vf[] = {0.0f, 1.0f, -2.5f, 3.4e38f, 1e-40f, 0.3333333f, 16777217.0f, -7.75f};

int main(int argc, char **argv) {
  (void)argv;
  u32 h = (u32)argc;
  int nd = sizeof vd / sizeof vd[0], nf = sizeof vf / sizeof vf[0];
  for (int i = 0; i < nd; i++) {
    for (int j = 0; j < nd; j++) {
      double a = vd[i], b = vd[j];
      h = h * 31 + dhash(a + b);
      h = h * 31 + dhash(a - b);
      h = h * 31 + dhash(a * b);
      if (b != 0) h = h * 31 + dhash(a / b);
      h = h * 31 + (a < b) + 2 * (a == b) + 4 * (a > b) + 8 * (a <= b) + 16 * (a >= b);
    }
    if (vd[i] >= 0) {
      double r = vd[i];
      for (int k = 0; k < 6; k++) r = (r + vd[i] / (r + 1)) * 0.5;
      h = h * 31 + dhash(r);
    }
    if (vd[i] > -2e9 && vd[i] < 2e9) h = h * 31 + (u32)(i32)vd[i];
    h = h * 31 + fbits((float)vd[i]);
  }
  for (int i = 0; i < nf; i++) {
    for (int j = 0; j < nf; j++) {
      float a = vf[i], b = vf[j];
      h = h * 31 + fbits(a + b) + fbits(a - b) * 3 + fbits(a * b) * 5;
      if (b != 0) h = h * 31 + fbits(a / b);
      h = h * 31 + (a < b) + 2 * (a == b) + 4 * (a > b);
    }
    h = h * 31 + dhash((double)vf[i]) + (u32)(i32)vf[i];
    h = h * 31 + fbits((float)(i32)(h & 0xffffff));
  }
  put_str("fp ");
  put_hex(h);
  put_nl();
  flush_out();
  return 0;
}
