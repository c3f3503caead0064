/*
 * Every single and double FPop of the FPU on edge operands (zeros, subnormals, limits, infinities,
 * quiet and signalling NaNs) in all four rounding directions, printing each result's bits and the
 * FSR (cexc, aexc, fcc) after it: the FPU's results and IEEE flags against qemu-sparc's.
 */
#include "lib.h"

static u32 get_fsr(void) {
  u32 f;
  __asm__ volatile("st %%fsr, %0" : "=m"(f));
  return f;
}
static void set_fsr(u32 f) {
  __asm__ volatile("ld %0, %%fsr" : : "m"(f));
}

static const u32 sv[] = {
  0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff,
  0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00001, 0x7f800005, 0x3eaaaaab, 0x4b800001, 0xc0490fdb,
};
static const u64 dv[] = {
  0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
  0x0000000000000001ull, 0x800fffffffffffffull, 0x0010000000000000ull, 0x7fefffffffffffffull,
  0xffefffffffffffffull, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000001ull,
  0x7ff0000000000005ull, 0x3fd5555555555555ull, 0x4340000000000001ull, 0xc00921fb54442d18ull,
  0x36a0000000000000ull, 0x47e0000000000001ull,
};
#define NS (sizeof sv / sizeof sv[0])
#define ND (sizeof dv / sizeof dv[0])

union fs { float f; u32 u; };
union fd { double d; u64 u; };

static void out_s(const char *op, u32 r) {
  put_str(op);
  put_str(" ");
  put_hex(r);
  put_str(" ");
  put_hex(get_fsr());
  put_nl();
}
static void out_d(const char *op, u64 r) {
  put_str(op);
  put_str(" ");
  put_hex((u32)(r >> 32));
  put_hex((u32)r);
  put_str(" ");
  put_hex(get_fsr());
  put_nl();
}

#define S2(NAME, A, B) do { union fs x, y, z; x.u = (A); y.u = (B); set_fsr(rd << 30); \
  __asm__ volatile(NAME " %1, %2, %0" : "=f"(z.f) : "f"(x.f), "f"(y.f)); out_s(NAME, z.u); } while (0)
#define D2(NAME, A, B) do { union fd x, y, z; x.u = (A); y.u = (B); set_fsr(rd << 30); \
  __asm__ volatile(NAME " %1, %2, %0" : "=e"(z.d) : "e"(x.d), "e"(y.d)); out_d(NAME, z.u); } while (0)

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  for (u32 rd = 0; rd < 4; rd++) {
    put_str("rd ");
    put_dec((i32)rd);
    put_nl();
    for (unsigned i = 0; i < NS; i++) {
      for (unsigned j = 0; j < NS; j++) {
        S2("fadds", sv[i], sv[j]);
        S2("fsubs", sv[i], sv[j]);
        S2("fmuls", sv[i], sv[j]);
        S2("fdivs", sv[i], sv[j]);
        { union fs x, y; x.u = sv[i]; y.u = sv[j]; set_fsr(rd << 30); __asm__ volatile("fcmps %0, %1" : : "f"(x.f), "f"(y.f)); __asm__ volatile("nop"); out_s("fcmps", 0); }
        { union fs x, y; x.u = sv[i]; y.u = sv[j]; set_fsr(rd << 30); __asm__ volatile("fcmpes %0, %1" : : "f"(x.f), "f"(y.f)); __asm__ volatile("nop"); out_s("fcmpes", 0); }
        { union fs x, y; union fd z; x.u = sv[i]; y.u = sv[j]; set_fsr(rd << 30); __asm__ volatile("fsmuld %1, %2, %0" : "=e"(z.d) : "f"(x.f), "f"(y.f)); out_d("fsmuld", z.u); }
      }
      union fs x, z;
      union fd d;
      x.u = sv[i];
      set_fsr(rd << 30); __asm__ volatile("fsqrts %1, %0" : "=f"(z.f) : "f"(x.f)); out_s("fsqrts", z.u);
      set_fsr(rd << 30); __asm__ volatile("fstoi %1, %0" : "=f"(z.f) : "f"(x.f)); out_s("fstoi", z.u);
      set_fsr(rd << 30); __asm__ volatile("fitos %1, %0" : "=f"(z.f) : "f"(x.f)); out_s("fitos", z.u);
      /*
       * qemu-sparc 7.2 raises no invalid exception at fstod of a signalling NaN (the flag turns
       * up in the FSR of a later FPop): not compared.
       */
      if (sv[i] != 0x7f800005) {
        set_fsr(rd << 30); __asm__ volatile("fstod %1, %0" : "=e"(d.d) : "f"(x.f)); out_d("fstod", d.u);
      }
      set_fsr(rd << 30); __asm__ volatile("fitod %1, %0" : "=e"(d.d) : "f"(x.f)); out_d("fitod", d.u);
      set_fsr(rd << 30); __asm__ volatile("fnegs %1, %0" : "=f"(z.f) : "f"(x.f)); out_s("fnegs", z.u);
      set_fsr(rd << 30); __asm__ volatile("fabss %1, %0" : "=f"(z.f) : "f"(x.f)); out_s("fabss", z.u);
      set_fsr(rd << 30); __asm__ volatile("fmovs %1, %0" : "=f"(z.f) : "f"(x.f)); out_s("fmovs", z.u);
    }
    for (unsigned i = 0; i < ND; i++) {
      for (unsigned j = 0; j < ND; j++) {
        D2("faddd", dv[i], dv[j]);
        D2("fsubd", dv[i], dv[j]);
        D2("fmuld", dv[i], dv[j]);
        D2("fdivd", dv[i], dv[j]);
        { union fd x, y; x.u = dv[i]; y.u = dv[j]; set_fsr(rd << 30); __asm__ volatile("fcmpd %0, %1" : : "e"(x.d), "e"(y.d)); __asm__ volatile("nop"); out_s("fcmpd", 0); }
        { union fd x, y; x.u = dv[i]; y.u = dv[j]; set_fsr(rd << 30); __asm__ volatile("fcmped %0, %1" : : "e"(x.d), "e"(y.d)); __asm__ volatile("nop"); out_s("fcmped", 0); }
      }
      union fd x, z;
      union fs s;
      x.u = dv[i];
      set_fsr(rd << 30); __asm__ volatile("fsqrtd %1, %0" : "=e"(z.d) : "e"(x.d)); out_d("fsqrtd", z.u);
      set_fsr(rd << 30); __asm__ volatile("fdtoi %1, %0" : "=f"(s.f) : "e"(x.d)); out_s("fdtoi", s.u);
      set_fsr(rd << 30); __asm__ volatile("fdtos %1, %0" : "=f"(s.f) : "e"(x.d)); out_s("fdtos", s.u);
    }
    flush_out();
  }
  /* Accrued exceptions survive successive FPops. */
  set_fsr(0);
  { union fs x, y, z; x.u = 0x3f800000; y.u = 0; __asm__ volatile("fdivs %1, %2, %0" : "=f"(z.f) : "f"(x.f), "f"(y.f)); out_s("acc1", z.u); }
  { union fs x, y, z; x.u = 0x3f800000; y.u = 0x40400000; __asm__ volatile("fdivs %1, %2, %0" : "=f"(z.f) : "f"(x.f), "f"(y.f)); out_s("acc2", z.u); }
  flush_out();
  return 0;
}
