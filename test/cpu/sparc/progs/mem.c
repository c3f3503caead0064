/* Loads and stores of every width and signedness, doubleword copies, struct moves. */
#include "lib.h"

struct rec {
  signed char sc;
  unsigned char uc;
  short ss;
  unsigned short us;
  int i;
  long long ll;
  double d;
};

static struct rec recs[16];
static unsigned char bytes[256];
static volatile u32 vsink;

int main(int argc, char **argv) {
  (void)argv;
  u32 h = 0;
  for (int i = 0; i < 256; i++) bytes[i] = (unsigned char)(i * 37 + argc);
  for (int i = 0; i < 16; i++) {
    struct rec *r = &recs[i];
    r->sc = (signed char)bytes[i * 7];
    r->uc = bytes[i * 5 + 1];
    r->ss = (short)(bytes[i] << 8 | bytes[i + 100]);
    r->us = (unsigned short)(bytes[i + 3] << 8 | bytes[i + 9]);
    r->i = (int)(r->ss * 65536 + r->us);
    r->ll = (long long)r->i * 1000003LL + r->sc;
    r->d = (double)r->i / 3.0;
  }
  for (int i = 0; i < 16; i++) {
    struct rec t = recs[15 - i];
    recs[15 - i] = recs[i];
    recs[i] = t;
  }
  for (int i = 0; i < 16; i++) {
    const struct rec *r = &recs[i];
    h = h * 33 + (u32)r->sc;
    h = h * 33 + r->uc;
    h = h * 33 + (u32)r->ss;
    h = h * 33 + r->us;
    h = h * 33 + (u32)r->i;
    h = h * 33 + (u32)(r->ll >> 32) + (u32)r->ll;
    h = h * 33 + (u32)(i32)r->d;
  }
  const unsigned short *hp = (const unsigned short *)bytes;
  const short *shp = (const short *)bytes;
  const u32 *wp = (const u32 *)bytes;
  for (int i = 0; i < 64; i++) h = h * 7 + hp[i] + (u32)shp[i + 1] + wp[i / 2] + (u32)(signed char)bytes[i * 3];
  vsink = h;
  put_str("mem ");
  put_hex(h);
  put_nl();
  flush_out();
  return 0;
}
