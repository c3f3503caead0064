/*
 * Word-at-a-time helpers for the string routines: 32-bit words that may alias any object, and
 * the classic zero-byte test. Private to images/libc/src/string.
 */
#ifndef _STRING_WORD_H_
#define _STRING_WORD_H_

#include <stdint.h>

typedef uint32_t __attribute__((__may_alias__)) word_t;

#define WSIZE 4u
#define WMASK (WSIZE - 1)
#define ONES 0x01010101u
#define HIGHS 0x80808080u

/* Nonzero iff some byte of w is zero (exact: no false positives for the lowest zero byte). */
#define HASZERO(w) (((w) - ONES) & ~(w) & HIGHS)

/*
 * The word made of the last (4 - sh) bytes of aligned word a followed by the first sh bytes of
 * the next aligned word b, in memory order: how a misaligned source is read as aligned words.
 */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define MERGE(a, b, sh) (((a) << (8 * (sh))) | ((b) >> (32 - 8 * (sh))))
#else
#define MERGE(a, b, sh) (((a) >> (8 * (sh))) | ((b) << (32 - 8 * (sh))))
#endif

/*
 * gcc would turn the byte and word loops below into calls to memcpy/memset themselves: the
 * routines that implement those calls are compiled without that transformation.
 */
#define NO_LOOP_CALLS __attribute__((__optimize__("no-tree-loop-distribute-patterns")))

#endif /* !_STRING_WORD_H_ */
