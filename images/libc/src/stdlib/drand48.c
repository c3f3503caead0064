/*
 * The drand48 family (SVID, POSIX.1): the linear congruential generator
 * X(n+1) = (a X(n) + c) mod 2^48 with a = 0x5DEECE66D and c = 0xB unless lcong48 changed them.
 * The state X is three 16-bit words, least significant first (the caller's own for erand48,
 * nrand48 and jrand48). Before any seeding X is 0x1234ABCD330E.
 */
#include <stdint.h>
#include <stdlib.h>

static unsigned short x[3] = { 0x330e, 0xabcd, 0x1234 };
static unsigned short a[3] = { 0xe66d, 0xdeec, 0x0005 };
static unsigned short c = 0x000b;

static uint64_t get48(const unsigned short v[3])
{
  return (uint64_t)v[2] << 32 | (uint32_t)v[1] << 16 | v[0];
}

/* One step of the generator on xsubi; returns the new X. */
static uint64_t next(unsigned short xsubi[3])
{
  uint64_t v = (get48(a) * get48(xsubi) + c) & 0xffffffffffffULL;
  xsubi[0] = (unsigned short)v;
  xsubi[1] = (unsigned short)(v >> 16);
  xsubi[2] = (unsigned short)(v >> 32);
  return v;
}

/* X / 2^48 is exact in a double (48 significant bits). */
double erand48(unsigned short xsubi[3])
{
  return (double)next(xsubi) * (1.0 / 281474976710656.0);
}

double drand48(void)
{
  return erand48(x);
}

long nrand48(unsigned short xsubi[3])
{
  return (long)(next(xsubi) >> 17);
}

long lrand48(void)
{
  return nrand48(x);
}

long jrand48(unsigned short xsubi[3])
{
  return (long)(int32_t)(uint32_t)(next(xsubi) >> 16);
}

long mrand48(void)
{
  return jrand48(x);
}

static void reset(void)
{
  a[0] = 0xe66d;
  a[1] = 0xdeec;
  a[2] = 0x0005;
  c = 0x000b;
}

void srand48(long seed)
{
  x[0] = 0x330e;
  x[1] = (unsigned short)seed;
  x[2] = (unsigned short)((unsigned long)seed >> 16);
  reset();
}

unsigned short *seed48(unsigned short seed16v[3])
{
  static unsigned short old[3];
  old[0] = x[0];
  old[1] = x[1];
  old[2] = x[2];
  x[0] = seed16v[0];
  x[1] = seed16v[1];
  x[2] = seed16v[2];
  reset();
  return old;
}

void lcong48(unsigned short param[7])
{
  x[0] = param[0];
  x[1] = param[1];
  x[2] = param[2];
  a[0] = param[3];
  a[1] = param[4];
  a[2] = param[5];
  c = param[6];
}
