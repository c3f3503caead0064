/* The printf engine's output channel and conversion spec, private to images/libc/src/stdio. */
#ifndef _STDIO_PRINTF_H_
#define _STDIO_PRINTF_H_

#include <stddef.h>
#include "local.h"

/*
 * Where formatted output goes: straight into a stream (fp), or into buf[0..cap) (sprintf:
 * output beyond cap is counted but dropped), in which case a full buffer is handed to spill if
 * set (an unbuffered stream gets each printf call's output in one write).
 */
struct pout {
  FILE *fp;
  char *buf;
  size_t cap, used;
  FILE *spill;
  size_t total;   /* bytes produced, including any dropped */
  int err;        /* a write to fp or spill failed */
};

#define PF_MINUS 0x01  /* '-': left-justify */
#define PF_PLUS  0x02  /* '+': always a sign */
#define PF_SPACE 0x04  /* ' ': space for a plus sign */
#define PF_ALT   0x08  /* '#': alternative form */
#define PF_ZERO  0x10  /* '0': pad with zeros */

struct pspec {
  int flags;
  int width;   /* >= 0 */
  int prec;    /* -1 when absent */
  char conv;
};

void __pout_write(struct pout *o, const char *s, size_t n);
void __pout_pad(struct pout *o, char c, int n);
/* %e %f %g %a and their upper-case forms. */
void __pfloat(struct pout *o, const struct pspec *sp, double x);

#endif /* !_STDIO_PRINTF_H_ */
