/*
 * LZW compression and decompression in the compress(1) format (see lzw.h).
 *
 * The compressor keeps the string table in an open-addressed hash table keyed by (prefix code,
 * next byte); a probe sequence with a secondary displacement, as compress did, keeps the table
 * small (HSIZE entries for 2^16 codes). In block mode, once the table is full, the compression
 * ratio is checked every CHECK_GAP input bytes and the table is cleared when the ratio drops.
 */
#include <stdlib.h>
#include <string.h>
#include "lzw.h"

#define HSIZE 69001             /* prime, about 1.05 * 2^16 */
#define CLEAR 256
#define FIRST 257
#define CHECK_GAP 10000
#define BLOCK_MODE 0x80
#define BITS_MASK 0x1f

static const unsigned char magic[2] = { 0x1f, 0x9d };

size_t lzw_bound(size_t n)
{
	/* At worst every byte becomes one code of LZW_MAX_BITS bits, plus padding of one group per
	 * width change or CLEAR (at most one per CHECK_GAP bytes plus the 7 widenings). */
	return 3 + n * 2 + (n / CHECK_GAP + 8) * LZW_MAX_BITS + 16;
}

/* ---- compressor ---- */

struct encoder {
	unsigned char *out;
	size_t outlen;
	unsigned char group[LZW_MAX_BITS];      /* eight codes of n_bits bits */
	int bitoff;                     /* bits used in group */
	int n_bits, maxbits;
	unsigned int maxcode, maxmaxcode;
	unsigned int free_ent;
	int clear_pending;
};

static void flush_group(struct encoder *e, int nbytes)
{
	memcpy(e->out + e->outlen, e->group, (size_t)nbytes);
	e->outlen += (size_t)nbytes;
	memset(e->group, 0, sizeof e->group);
	e->bitoff = 0;
}

static void put_code(struct encoder *e, unsigned int code)
{
	int off = e->bitoff, left = e->n_bits;
	unsigned char *bp = e->group + (off >> 3);
	off &= 7;
	/* The low bits of the code fill the free high bits of the current byte first. */
	while (left > 0) {
		int take = 8 - off < left ? 8 - off : left;
		*bp |= (unsigned char)((code & ((1u << take) - 1)) << off);
		code >>= take;
		left -= take;
		off = 0;
		bp++;
	}
	e->bitoff += e->n_bits;
	if (e->bitoff == e->n_bits * 8)
		flush_group(e, e->n_bits);
	if (e->clear_pending || e->free_ent > e->maxcode) {
		/* The reader changes width only at a group boundary: pad the group. */
		if (e->bitoff > 0)
			flush_group(e, e->n_bits);
		if (e->clear_pending) {
			e->n_bits = LZW_MIN_BITS;
			e->clear_pending = 0;
		} else {
			e->n_bits++;
		}
		e->maxcode = e->n_bits == e->maxbits ? e->maxmaxcode : (1u << e->n_bits) - 1;
	}
}

size_t lzw_compress(const unsigned char *in, size_t n, unsigned char *out, int maxbits, long *clears)
{
	static unsigned int htab[HSIZE];        /* (byte << 16 | prefix) + 1, 0 = empty */
	static unsigned short codetab[HSIZE];
	struct encoder e;
	unsigned long in_count = 0, checkpoint = CHECK_GAP, ratio = 0;
	unsigned int ent;
	size_t pos;
	memset(&e, 0, sizeof e);
	e.out = out;
	e.maxbits = maxbits;
	e.n_bits = LZW_MIN_BITS;
	e.maxcode = (1u << LZW_MIN_BITS) - 1;
	e.maxmaxcode = 1u << maxbits;
	e.free_ent = FIRST;
	*clears = 0;
	out[0] = magic[0];
	out[1] = magic[1];
	out[2] = (unsigned char)(maxbits | BLOCK_MODE);
	e.outlen = 3;
	if (n == 0)
		return e.outlen;
	memset(htab, 0, sizeof htab);
	ent = in[0];
	in_count = 1;
	for (pos = 1; pos < n; pos++) {
		unsigned int c = in[pos];
		unsigned int key = (c << 16 | ent) + 1;
		unsigned int i = ((c << 8) ^ ent) % HSIZE;
		unsigned int disp = i == 0 ? 1 : HSIZE - i;
		in_count++;
		while (htab[i] != 0 && htab[i] != key) {
			i = i >= disp ? i - disp : i + HSIZE - disp;
		}
		if (htab[i] == key) {
			ent = codetab[i];
			continue;
		}
		put_code(&e, ent);
		ent = c;
		if (e.free_ent < e.maxmaxcode) {
			codetab[i] = (unsigned short)e.free_ent++;
			htab[i] = key;
		} else if (in_count >= checkpoint) {
			/* Ratio as input bytes per output byte in 8.8 fixed point, output counted in
			 * bytes written so far (the pending group not included), as compress did. */
			unsigned long rat, outbytes = e.outlen;
			checkpoint = in_count + CHECK_GAP;
			if (in_count > 0x007fffff) {
				rat = outbytes >> 8;
				rat = rat == 0 ? 0x7fffffff : in_count / rat;
			} else {
				rat = (in_count << 8) / outbytes;
			}
			if (rat >= ratio) {
				ratio = rat;
			} else {
				ratio = 0;
				memset(htab, 0, sizeof htab);
				e.free_ent = FIRST;
				e.clear_pending = 1;
				put_code(&e, CLEAR);
				++*clears;
			}
		}
	}
	put_code(&e, ent);
	if (e.bitoff > 0)
		flush_group(&e, (e.bitoff + 7) / 8);
	return e.outlen;
}

/* ---- decompressor ---- */

long lzw_decompress(const unsigned char *in, size_t n, unsigned char **outp, size_t *capp, const char **err)
{
	static unsigned short prefix[1 << LZW_MAX_BITS];
	static unsigned char suffix[1 << LZW_MAX_BITS];
	static unsigned char stack[1 << LZW_MAX_BITS];
	unsigned char *out = *outp;
	size_t cap = *capp, len = 0;
	unsigned long bitpos, nbits_total;
	int n_bits = LZW_MIN_BITS, maxbits, block, codes_in_group = 0;
	unsigned int maxcode = (1u << LZW_MIN_BITS) - 1, maxmaxcode, free_ent;
	int oldcode = -1;
	unsigned int finchar = 0;
	if (n < 3 || in[0] != magic[0] || in[1] != magic[1]) {
		*err = "not in compressed format";
		return -1;
	}
	maxbits = in[2] & BITS_MASK;
	block = (in[2] & BLOCK_MODE) != 0;
	if (maxbits < LZW_MIN_BITS || maxbits > LZW_MAX_BITS || (in[2] & 0x60)) {
		*err = "unsupported code width or flags";
		return -1;
	}
	maxmaxcode = 1u << maxbits;
	free_ent = block ? FIRST : 256;
	bitpos = 24;
	nbits_total = (unsigned long)n * 8;
	for (;;) {
		unsigned int code, incode;
		int sp = 0;
		if (free_ent > maxcode) {
			/* Width grows: skip the rest of the writer's padded group. */
			if (codes_in_group)
				bitpos += (unsigned long)(8 - codes_in_group) * (unsigned long)n_bits;
			codes_in_group = 0;
			n_bits++;
			maxcode = n_bits == maxbits ? maxmaxcode : (1u << n_bits) - 1;
		}
		if (bitpos + (unsigned long)n_bits > nbits_total)
			break;          /* end of data (the rest is padding of the last byte) */
		{
			/* A code spans at most three bytes, the last of which may lie past the end. */
			size_t k = (size_t)(bitpos >> 3);
			unsigned int w = in[k];
			if (k + 1 < n)
				w |= (unsigned int)in[k + 1] << 8;
			if (k + 2 < n)
				w |= (unsigned int)in[k + 2] << 16;
			code = (w >> (bitpos & 7)) & ((1u << n_bits) - 1);
		}
		bitpos += (unsigned long)n_bits;
		codes_in_group = (codes_in_group + 1) & 7;
		if (code == CLEAR && block) {
			if (codes_in_group)
				bitpos += (unsigned long)(8 - codes_in_group) * (unsigned long)n_bits;
			codes_in_group = 0;
			n_bits = LZW_MIN_BITS;
			maxcode = (1u << LZW_MIN_BITS) - 1;
			free_ent = FIRST;
			oldcode = -1;
			continue;
		}
		incode = code;
		if (oldcode < 0) {
			if (code > 255) {
				*err = "corrupt input (first code is not a byte)";
				return -1;
			}
			finchar = code;
		} else {
			if (code > free_ent) {
				*err = "corrupt input (code out of range)";
				return -1;
			}
			if (code == free_ent) {         /* the KwKwK case: string of oldcode + its first byte */
				stack[sp++] = (unsigned char)finchar;
				code = (unsigned int)oldcode;
			}
			while (code >= 256) {
				stack[sp++] = suffix[code];
				code = prefix[code];
			}
			finchar = code;
		}
		stack[sp++] = (unsigned char)finchar;
		if (len + (size_t)sp > cap) {
			while (len + (size_t)sp > cap)
				cap = cap ? cap * 2 : 65536;
			out = realloc(out, cap);
			if (!out) {
				*err = "out of memory";
				return -1;
			}
			*outp = out;
			*capp = cap;
		}
		while (sp > 0)
			out[len++] = stack[--sp];
		if (oldcode >= 0 && free_ent < maxmaxcode) {
			prefix[free_ent] = (unsigned short)oldcode;
			suffix[free_ent] = (unsigned char)finchar;
			free_ent++;
		}
		oldcode = (int)incode;
	}
	return (long)len;
}
