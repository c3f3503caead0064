/*
 * LZW in the format of Unix compress(1) (".Z"): magic 0x1f 0x9d, a flags byte (maximum code width
 * in the low 5 bits, 0x80 = block mode with the CLEAR code 256), then codes of 9 to maxbits bits
 * packed least significant bit first in groups of eight codes. When the code width changes (or a
 * CLEAR is sent) the current group is padded to its full size of n_bits bytes, as the original
 * program wrote it; gzip -d and compress -d read exactly this.
 */
#ifndef LZW_H
#define LZW_H

#include <stddef.h>

#define LZW_MIN_BITS 9
#define LZW_MAX_BITS 16

/* Bytes that compressing n bytes can take at most (header, codes and group padding). */
size_t lzw_bound(size_t n);

/* Compresses in[0..n) into out (at least lzw_bound(n) bytes) with codes of up to maxbits bits
 * (9..16); returns the compressed size. *clears receives the number of CLEAR codes sent. */
size_t lzw_compress(const unsigned char *in, size_t n, unsigned char *out, int maxbits, long *clears);

/* Decompresses in[0..n) into *out, a malloc'ed buffer of *cap bytes that grows (realloc) as
 * needed. Returns the decompressed size, or -1 with *err set to a message if the data is not
 * valid compress output or memory runs out. */
long lzw_decompress(const unsigned char *in, size_t n, unsigned char **out, size_t *cap, const char **err);

#endif
