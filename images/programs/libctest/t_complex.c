/*
 * Complex arithmetic: * and / through the runtime's __muldc3 and __divdc3 (infinite and zero
 * operands as C99 Annex G recovers them, large and small divisors), the float forms (__mulsc3,
 * __divsc3), and the <complex.h> functions at 12 significant digits on moderate arguments.
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include "libctest.h"

static void pc(const char *what, double complex z)
{
  double x = creal(z), y = cimag(z);
  printf("%s = ", what);
  if (isnan(x)) printf("nan");
  else printf("%.12g", x);
  printf(" ");
  if (isnan(y)) printf("nan");
  else printf("%+.12g", y);
  printf("i\n");
}

void test_complex(void)
{
  volatile double inf = INFINITY, nan = NAN, big = 1e300, tiny = 1e-300;
  double complex a = CMPLX(1, 2), b = CMPLX(3, -4);
  pc("(1+2i)*(3-4i)", a * b);
  pc("(1+2i)/(3-4i)", a / b);
  pc("(inf+nan i)*(1+1i)", CMPLX(inf, nan) * CMPLX(1, 1));
  pc("(nan+inf i)*(2+0i)", CMPLX(nan, inf) * CMPLX(2, 0));
  pc("(1+1i)/(0+0i)", CMPLX(1, 1) / CMPLX(0, 0));
  pc("(inf+1i)/(1+1i)", CMPLX(inf, 1) / CMPLX(1, 1));
  pc("(1+1i)/(inf+inf i)", CMPLX(1, 1) / CMPLX(inf, inf));
  pc("(1e300+1e300i)/(1e300+1e300i)", CMPLX(big, big) / CMPLX(big, big));
  pc("(1e-300+1e-300i)/(1e-300-1e-300i)", CMPLX(tiny, tiny) / CMPLX(tiny, -tiny));
  pc("(1e300+1i)*(1e10+1e10i)", CMPLX(big, 1) * CMPLX(1e10, 1e10));
  float complex fa = CMPLXF(1.5f, -2.5f), fb = CMPLXF(0.25f, 4);
  float complex fp = fa * fb, fq = fa / fb;
  printf("float: %a %a / %a %a\n", (double)crealf(fp), (double)cimagf(fp), (double)crealf(fq), (double)cimagf(fq));
  pc("float (inf+0i)*(0+1i)", (double complex)(CMPLXF((float)inf, 0) * CMPLXF(0, 1)));
  rng_seed(0x5eedc0c0);
  block_begin("complex-arith");
  int bad = 0;
  for (int i = 0; i < 1000; i++) {
    double complex x = CMPLX(rng_double(-40, 40, 1), rng_double(-40, 40, 1));
    double complex y = CMPLX(rng_double(-40, 40, 1), rng_double(-40, 40, 1));
    double complex p = x * y, q = x / y;
    char line[200];
    /* Products are the textbook formula rounded: exact bits. Quotients differ by algorithm in
       their last bits (and more under cancellation), so they are checked norm-wise: q*y is x
       to a few ulps of |x|. */
    int n = snprintf(line, sizeof line, "%a %a %a %a", creal(p), cimag(p), creal(x), cimag(y));
    block_case(line, (size_t)n);
    if (cabs(q * y - x) > 1e-15 * cabs(x)) bad++;
  }
  block_end();
  printf("complex-div: %d of 1000 quotients off by more than 1e-15 |x|\n", bad);

  static const double args[][2] = { { 0.5, 0.25 }, { -1.5, 2 }, { 3, -0.75 }, { -0.2, -0.9 }, { 2.5, 0 }, { 0, 1.25 },
                                    { 1, 1 }, { -4, 0.1 } };
  struct { const char *name; double complex (*f)(double complex); } fs[] = {
    { "cexp", cexp }, { "clog", clog }, { "csqrt", csqrt }, { "csin", csin }, { "ccos", ccos }, { "ctan", ctan },
    { "csinh", csinh }, { "ccosh", ccosh }, { "ctanh", ctanh }, { "casin", casin }, { "cacos", cacos },
    { "catan", catan }, { "casinh", casinh }, { "cacosh", cacosh }, { "catanh", catanh }, { "cproj", cproj },
    { "conj", conj },
  };
  char what[64];
  for (size_t f = 0; f < sizeof fs / sizeof fs[0]; f++)
    for (size_t i = 0; i < sizeof args / sizeof args[0]; i++) {
      snprintf(what, sizeof what, "%s(%g%+gi)", fs[f].name, args[i][0], args[i][1]);
      pc(what, fs[f].f(CMPLX(args[i][0], args[i][1])));
    }
  for (size_t i = 0; i < sizeof args / sizeof args[0]; i++) {
    double complex z = CMPLX(args[i][0], args[i][1]);
    printf("cabs %.12g carg %.12g creal %g cimag %g\n", cabs(z), carg(z), creal(z), cimag(z));
    snprintf(what, sizeof what, "cpow(%g%+gi, 0.5-1.5i)", args[i][0], args[i][1]);
    pc(what, cpow(z, CMPLX(0.5, -1.5)));
  }
  pc("clog(1+1e-10i)", clog(CMPLX(1, 1e-10)));
  pc("cexp(-inf+2i)", cexp(CMPLX(-inf, 2)));
  pc("csqrt(-4+0i)", csqrt(CMPLX(-4, 0)));
  pc("csqrt(-4-0i)", csqrt(CMPLX(-4, -0.0)));
  pc("csqrt(1e308+1e308i)", csqrt(CMPLX(1e308, 1e308)));
  pc("ctanh(30+1i)", ctanh(CMPLX(30, 1)));
  pc("cproj(inf+2i)", cproj(CMPLX(inf, 2)));
  float complex fz = csqrtf(CMPLXF(-9, 0));
  printf("csqrtf(-9) = %g %+gi; cabsf(3+4i) = %g; cexpf(0+pi i) = %.5f %+.5fi\n", (double)crealf(fz), (double)cimagf(fz),
         (double)cabsf(CMPLXF(3, 4)), (double)crealf(cexpf(CMPLXF(0, (float)M_PI))),
         (double)cimagf(cexpf(CMPLXF(0, (float)M_PI))) + 0.0);
}
