/*
 * The rest of C99's <math.h>: fma (exact: every bit printed, random cases with cancellation,
 * overflow and subnormal results), remainder, remquo, nextafter, nexttoward, nan, llrint,
 * scalbln (exact); cbrt, asinh, acosh, atanh, erf, erfc, lgamma and signgam, tgamma (13
 * significant digits, as the math section prints the functions glibc itself gets within an ulp
 * or two; lgamma away from its negative zeros); the float functions (exact ones every bit,
 * the others 6 digits) and the long double ones (which are the double ones here: self-checked
 * against them, since the host's long double is wider).
 */
#include <errno.h>
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "libctest.h"

static void fma_cases(void)
{
  static const double t[][3] = {
    { 1, 2, 3 }, { 0x1p-1074, 0.5, 0 }, { 0x1.fffffffffffffp1023, 2, -0x1.fffffffffffffp1023 },
    { 0x1.0000000000001p0, 0x1.0000000000001p0, -1 }, { 1 + 0x1p-52, 1 - 0x1p-53, -1 }, { 0.1, 10, -1 },
    { 3, -0.0, 0.0 }, { -0.0, 5, -0.0 }, { 1e308, 10, -INFINITY }, { INFINITY, 0, 1 }, { 0x1p-600, 0x1p-600, 1 },
    { 0x1p-600, 0x1p-600, -0x1p-1074 }, { 0x1.8p-537, 0x1p-537, 0 }, { DBL_MAX, DBL_MAX, -INFINITY },
    { 2, 0x1.fffffffffffffp1023, -0x1.fffffffffffffp1023 }, { 0x1.5555555555555p-1, 3, -1 },
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    char what[96];
    snprintf(what, sizeof what, "fma(%a, %a, %a)", t[i][0], t[i][1], t[i][2]);
    print_double(what, fma(t[i][0], t[i][1], t[i][2]), 0);
  }
  block_begin("fma-random");
  for (int i = 0; i < 3000; i++) {
    double x = rng_double(-60, 60, 1), y = rng_double(-60, 60, 1), z;
    switch (i % 4) {
    case 0: z = rng_double(-120, 120, 1); break;
    case 1: z = -x * y; break;                        /* near cancellation */
    case 2: x = rng_double(-1022, -900, 1); y = rng_double(-200, 10, 1); z = rng_double(-1022, -1000, 1) * 0x1p-30; break;   /* subnormal */
    default: x = rng_double(900, 1023, 1); y = rng_double(0, 200, 1); z = rng_double(1000, 1023, 1); break;       /* overflow */
    }
    char line[160];
    int n = snprintf(line, sizeof line, "%a %a %a %a", x, y, z, fma(x, y, z));
    block_case(line, (size_t)n);
  }
  block_end();
  block_begin("fmaf-random");
  for (int i = 0; i < 2000; i++) {
    float x = (float)rng_double(-20, 20, 1), y = (float)rng_double(-20, 20, 1), z = i & 1 ? (float)rng_double(-40, 40, 1) : -x * y;
    char line[120];
    int n = snprintf(line, sizeof line, "%a %a %a %a", x, y, z, fmaf(x, y, z));
    block_case(line, (size_t)n);
  }
  block_end();
}

static void exact_cases(void)
{
  static const double rq[][2] = { { 5, 3 }, { -5, 3 }, { 5.5, 2 }, { 6.5, 2 }, { 7.5, 2 }, { 1e300, 3 }, { 3, 1e300 },
                                  { -0.0, 1 }, { 2.5, 5 }, { 7.5, 5 }, { 1, 0 }, { INFINITY, 1 }, { 1, INFINITY },
                                  { 0x1p-1074, 0x1p-1073 }, { 0x1.8p-1073, 0x1p-1074 } };
  for (size_t i = 0; i < sizeof rq / sizeof rq[0]; i++) {
    int q = 99;
    double r = remquo(rq[i][0], rq[i][1], &q);
    char what[96];
    snprintf(what, sizeof what, "remainder(%a, %a)", rq[i][0], rq[i][1]);
    print_double(what, remainder(rq[i][0], rq[i][1]), 0);
    snprintf(what, sizeof what, "  remquo quo %d, r", isnan(r) ? 0 : q);
    print_double(what, r, 0);
  }
  block_begin("remquo-random");
  for (int i = 0; i < 1000; i++) {
    double x = rng_double(-1000, 1000, 1), y = rng_double(-30, 30, 1);
    int q;
    double r = remquo(x, y, &q);
    char line[120];
    int n = snprintf(line, sizeof line, "%a %a %a %d %a", x, y, r, q, remainder(x, y));
    block_case(line, (size_t)n);
  }
  block_end();
  static const double nx[][2] = { { 1, 2 }, { 1, 0 }, { 0, 1 }, { 0, -1 }, { -0.0, 0.0 }, { DBL_MAX, INFINITY },
                                  { 0x1p-1022, 0 }, { -0x1p-1074, 1 }, { 1, 1 }, { INFINITY, 0 } };
  for (size_t i = 0; i < sizeof nx / sizeof nx[0]; i++) {
    errno = 0;
    double r = nextafter(nx[i][0], nx[i][1]);
    int e = errno;
    printf("nextafter(%a, %a) = %a%s; nexttoward %a; nextafterf %a\n", nx[i][0], nx[i][1], r, e == ERANGE ? " ERANGE" : "",
           nexttoward(nx[i][0], nx[i][1]), (double)nextafterf((float)nx[i][0], (float)nx[i][1]));
  }
  printf("nan: %d %d %d; llrint %lld %lld %lld; scalbln %a %a\n", isnan(nan("")) != 0, isnan(nan("42")) != 0,
         isnan(nanf("")) != 0, llrint(2.5), llrint(-3.5), llrint(1e15 + 0.5), scalbln(1.5, 10), scalbln(1, -1074));
}

static void approx_cases(void)
{
  struct { const char *name; double (*f)(double); double lo, hi; } fs[] = {
    { "cbrt", cbrt, -1e10, 1e10 }, { "asinh", asinh, -20, 20 }, { "acosh", acosh, 1, 100 },
    { "atanh", atanh, -0.999, 0.999 }, { "erf", erf, -5, 5 }, { "erfc", erfc, -5, 26 }, { "tgamma", tgamma, -30.5, 170 },
  };
  static const double specials[] = { 0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 1e-300, 1e300, INFINITY, -INFINITY, 10.5 };
  char what[80];
  for (size_t f = 0; f < sizeof fs / sizeof fs[0]; f++) {
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++) {
      snprintf(what, sizeof what, "%s(%a)", fs[f].name, specials[i]);
      print_double(what, fs[f].f(specials[i]), 13);
    }
    for (int i = 0; i < 30; i++) {
      double x = fs[f].lo + (fs[f].hi - fs[f].lo) * ((double)(rng() >> 11) * 0x1p-53);
      snprintf(what, sizeof what, "%s(%a)", fs[f].name, x);
      print_double(what, fs[f].f(x), 13);
    }
  }
  /* lgamma, away from its zeros for x < 0, and the sign of Gamma. */
  static const double lg[] = { 1, 2, 3, 0.5, 1.5, 2.5, 1.4616321449683622, 1e-10, 0.9999, 1.0001, 1.9999, 100, 1e10,
                               1e300, 171.5, -0.5, -1.5, -3.5, -10.25, -100.5, 0.0, -0.0, -3, INFINITY, -INFINITY };
  for (size_t i = 0; i < sizeof lg / sizeof lg[0]; i++) {
    snprintf(what, sizeof what, "lgamma(%a)", lg[i]);
    signgam = 0;
    double r = lgamma(lg[i]);
    print_double(what, r, 13);
    printf("  signgam %d\n", signgam);
  }
  for (int i = 0; i < 40; i++) {
    double x = 0.01 + 60 * ((double)(rng() >> 11) * 0x1p-53);
    snprintf(what, sizeof what, "lgamma(%a)", x);
    print_double(what, lgamma(x), 13);
  }
}

static void errors(void)
{
  struct { const char *what; double v; int err; } e[] = {
    { "acosh(0.5)", 0, 0 }, { "atanh(1)", 0, 0 }, { "atanh(2)", 0, 0 }, { "tgamma(0)", 0, 0 }, { "tgamma(-1)", 0, 0 },
    { "tgamma(200)", 0, 0 }, { "lgamma(0)", 0, 0 }, { "lgamma(-2)", 0, 0 }, { "erfc(30)", 0, 0 }, { "remainder(1, 0)", 0, 0 },
    { "fma(1e308, 10, 0)", 0, 0 },
  };
#define E(i, expr) (errno = 0, e[i].v = (expr), e[i].err = errno)
  E(0, acosh(0.5));
  E(1, atanh(1));
  E(2, atanh(2));
  E(3, tgamma(0));
  E(4, tgamma(-1));
  E(5, tgamma(200));
  E(6, lgamma(0));
  E(7, lgamma(-2));
  E(8, erfc(30));
  E(9, remainder(1, 0));
  E(10, fma(1e308, 10, 0));
#undef E
  for (size_t i = 0; i < sizeof e / sizeof e[0]; i++) {
    printf("%s: errno %s, ", e[i].what, e[i].err == EDOM ? "EDOM" : e[i].err == ERANGE ? "ERANGE" : e[i].err ? "other" : "0");
    print_double("result", e[i].v, 17);
  }
}

static void float_forms(void)
{
  static const float xs[] = { 0.0f, -0.0f, 1.0f, -2.5f, 0.1f, 3.75f, 1e-40f, 3e38f, 100.5f, -7.25f };
  for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
    float x = xs[i];
    float ip;
    float fr = modff(x, &ip);
    int e;
    float m = frexpf(x, &e);
    printf("%a: floorf %a ceilf %a truncf %a roundf %a rintf %a nearbyintf %a lroundf %ld lrintf %ld llroundf %lld"
           " modff %a %a frexpf %a %d ldexpf %a scalbnf %a\n",
           (double)x, (double)floorf(x), (double)ceilf(x), (double)truncf(x), (double)roundf(x), (double)rintf(x),
           (double)nearbyintf(x), fabsf(x) < 1e9f ? lroundf(x) : 0L, fabsf(x) < 1e9f ? lrintf(x) : 0L,
           fabsf(x) < 1e18f ? llroundf(x) : 0LL, (double)fr, (double)ip, (double)m, e, (double)ldexpf(x, 3),
           (double)scalbnf(x, -2));
    printf("  fmodf %a remainderf %a copysignf %a fdimf %a fmaxf %a fminf %a sqrtf %a cbrtf %.6g\n",
           (double)fmodf(x, 0.75f), (double)remainderf(x, 0.75f), (double)copysignf(2, x), (double)fdimf(x, 1),
           (double)fmaxf(x, 0.5f), (double)fminf(x, 0.5f), (double)sqrtf(fabsf(x)), (double)cbrtf(x));
    printf("  expf %.6g logf %.6g sinf %.6g cosf %.6g tanf %.6g atanf %.6g atan2f %.6g powf %.6g hypotf %.6g erff %.6g"
           " tgammaf %.6g\n",
           (double)expf(x / 8), (double)logf(fabsf(x) + 1), (double)sinf(x), (double)cosf(x), (double)tanf(x),
           (double)atanf(x), (double)atan2f(x, 2), (double)powf(fabsf(x), 0.75f), (double)hypotf(x, 3),
           (double)erff(x), (double)tgammaf(x / 4 + 0.3f));
  }
  int q;
  float r = remquof(7.5f, 2, &q);
  printf("remquof(7.5, 2) = %a quo %d; ilogbf(96) %d logbf(96) %a\n", (double)r, q, ilogbf(96), (double)logbf(96));
}

static void long_forms(void)
{
  /* long double is double on the guests: each l form must equal its double form. */
  int same = 1;
  for (int i = 0; i < 200; i++) {
    double x = rng_double(-8, 8, 1), y = rng_double(-8, 8, 1);
    long double lx = x, ly = y;
    same &= (double)sinl(lx) == (double)sin((double)lx) || sizeof(long double) != sizeof(double);
    same &= (double)sqrtl(fabsl(lx)) == sqrt(fabs(x)) || sizeof(long double) != sizeof(double);
    same &= (double)powl(fabsl(lx), ly) == pow(fabs(x), y) || sizeof(long double) != sizeof(double);
    same &= (double)fmal(lx, ly, lx) == fma(x, y, x) || sizeof(long double) != sizeof(double);
    same &= (double)floorl(lx) == floor(x);
    same &= (double)fabsl(lx) == fabs(x);
  }
  check(same, "long double functions agree with the double ones");
}

/* The exception flags set, by name. */
static void flags(const char *what)
{
  printf("%s:%s%s%s%s%s\n", what, fetestexcept(FE_INEXACT) ? " inexact" : "", fetestexcept(FE_UNDERFLOW) ? " underflow" : "",
         fetestexcept(FE_OVERFLOW) ? " overflow" : "", fetestexcept(FE_DIVBYZERO) ? " divbyzero" : "",
         fetestexcept(FE_INVALID) ? " invalid" : "");
}

static void fenv(void)
{
  volatile double one = 1, zero = 0, three = 3, big = DBL_MAX, tiny = 0x1p-1000, r;
  feclearexcept(FE_ALL_EXCEPT);
  flags("cleared");
  r = one / three;
  flags("1/3");
  feclearexcept(FE_ALL_EXCEPT);
  r = one / zero;
  flags("1/0");
  feclearexcept(FE_ALL_EXCEPT);
  r = zero / zero;
  flags("0/0");
  feclearexcept(FE_ALL_EXCEPT);
  r = big * 2;
  flags("DBL_MAX*2");
  feclearexcept(FE_ALL_EXCEPT);
  r = tiny * tiny;
  flags("2^-1000 squared");
  feclearexcept(FE_ALL_EXCEPT);
  r = one + one;
  flags("1+1");
  (void)r;
  feraiseexcept(FE_OVERFLOW | FE_INVALID);
  flags("feraiseexcept(overflow|invalid)");
  fexcept_t saved;
  fegetexceptflag(&saved, FE_ALL_EXCEPT);
  feclearexcept(FE_ALL_EXCEPT);
  fesetexceptflag(&saved, FE_INVALID);
  flags("fesetexceptflag(invalid of overflow|invalid)");
  feclearexcept(FE_ALL_EXCEPT);
  static const struct { const char *name; int mode; } modes[] = {
    { "tonearest", FE_TONEAREST }, { "upward", FE_UPWARD }, { "downward", FE_DOWNWARD }, { "towardzero", FE_TOWARDZERO },
  };
  for (int i = 0; i < 4; i++) {
    int ok = fesetround(modes[i].mode) == 0 && fegetround() == modes[i].mode;
    /* volatile results: gcc (without -frounding-math) may move arithmetic across fesetround. */
    volatile double a = one / three, b = -one / three, c = big + big * 0x1p-60;
    volatile double ri = rint(2.5), rn = nearbyint(-2.5);
    fesetround(FE_TONEAREST);
    printf("%s (%d): 1/3 %a -1/3 %a DBL_MAX+ %a rint(2.5) %a nearbyint(-2.5) %a\n", modes[i].name, ok, a, b, c, ri, rn);
  }
  check(fesetround(12345) != 0 && fegetround() == FE_TONEAREST, "fesetround refuses a bad mode");
  fenv_t env;
  feclearexcept(FE_ALL_EXCEPT);
  feraiseexcept(FE_DIVBYZERO);
  feholdexcept(&env);
  flags("after feholdexcept");
  r = one / three;
  feupdateenv(&env);
  flags("feupdateenv (divbyzero held, inexact since)");
  fesetenv(FE_DFL_ENV);
  flags("FE_DFL_ENV");
  check(fegetround() == FE_TONEAREST, "FE_DFL_ENV rounds to nearest");
}

void test_math99(void)
{
  fenv();
  rng_seed(0x5eed0099);
  fma_cases();
  exact_cases();
  approx_cases();
  errors();
  float_forms();
  long_forms();
}
