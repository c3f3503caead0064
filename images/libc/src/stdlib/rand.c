/* rand and srand: the 64-bit LCG documented in <stdlib.h> (the same sequence on every target). */
#include <stdint.h>
#include <stdlib.h>

static uint64_t state = 1;

void srand(unsigned seed)
{
  state = seed;
}

int rand(void)
{
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (int)(state >> 33);
}
