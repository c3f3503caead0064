/* Output helpers: a small buffer flushed with write(2). */
#include "lib.h"

static char obuf[512];
static int olen;

void flush_out(void) {
  if (olen > 0) sys_write(1, obuf, olen);
  olen = 0;
}

static void put_ch(char c) {
  if (olen == (int)sizeof obuf) flush_out();
  obuf[olen++] = c;
}

void put_str(const char *s) {
  while (*s) put_ch(*s++);
}

void put_hex(u32 v) {
  for (int i = 28; i >= 0; i -= 4) put_ch("0123456789abcdef"[(v >> i) & 15]);
}

void put_dec(i32 v) {
  char t[12];
  int n = 0;
  u32 u = v < 0 ? -(u32)v : (u32)v;
  do {
    t[n++] = '0' + u % 10;
    u /= 10;
  } while (u);
  if (v < 0) put_ch('-');
  while (n) put_ch(t[--n]);
}

void put_nl(void) {
  put_ch('\n');
}

void *memset(void *d, int c, size_t n) {
  unsigned char *p = d;
  while (n--) *p++ = (unsigned char)c;
  return d;
}

void *memcpy(void *d, const void *s, size_t n) {
  unsigned char *p = d;
  const unsigned char *q = s;
  while (n--) *p++ = *q++;
  return d;
}
