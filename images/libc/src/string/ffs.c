/* ffs: 1 + index of the least significant set bit, 0 for 0 (MIPS I and SPARC v8 have no
 * count-trailing-zeros instruction, so a halving search). */
#include <strings.h>

int ffs(int i)
{
  unsigned v = (unsigned)i;
  if (v == 0) return 0;
  int n = 1;
  if ((v & 0xffff) == 0) n += 16, v >>= 16;
  if ((v & 0xff) == 0) n += 8, v >>= 8;
  if ((v & 0xf) == 0) n += 4, v >>= 4;
  if ((v & 0x3) == 0) n += 2, v >>= 2;
  if ((v & 0x1) == 0) n += 1;
  return n;
}
