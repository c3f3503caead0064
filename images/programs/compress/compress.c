/*
 * compress: LZW compression in the format of Unix compress(1).
 *
 *   compress [-b bits] [nbytes]    workload: generate nbytes (default 300000) of mixed text,
 *                                  tables and noise; compress and decompress them with codes of
 *                                  up to `bits` (default 16) and of up to 12 bits; check the round
 *                                  trip; print sizes, ratios, CLEAR counts and CRC-32s
 *   compress -c [-b bits]          compress stdin to stdout (.Z format; gzip -d reads it)
 *   compress -d                    decompress stdin to stdout
 *
 * Exit status 0, or 1 if a round trip fails or the input is not valid, 2 on a usage error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lzw.h"

/* ---- CRC-32 (IEEE 802.3, reflected, as zip and cksum -a crc32b compute it) ---- */

static unsigned int crc_table[256];

static void crc_init(void)
{
	unsigned int i, k, c;
	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}

static unsigned int crc32(const unsigned char *p, size_t n)
{
	unsigned int c = 0xffffffffu;
	while (n--)
		c = crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}

/* ---- test data: this program's own generator (never rand()) ---- */

static unsigned int seed = 12345;

static unsigned int next16(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 16;
}

static unsigned int pick(unsigned int n)
{
	return (next16() * n) >> 16;
}

static const char *const words[] = {
	"data", "block", "table", "entry", "code", "string", "prefix", "suffix", "byte", "word",
	"input", "output", "buffer", "stream", "file", "size", "ratio", "clear", "reset", "hash",
	"the", "of", "and", "a", "to", "in", "is", "that", "for", "it", "with", "as", "was", "on",
	"compress", "expand", "decode", "encode", "count", "check", "point", "limit", "width",
};

static const char *const cities[] = {
	"Madison", "Berkeley", "Stanford", "Princeton", "Ithaca", "Austin", "Seattle", "Boston",
};

/* Appends formatted-by-hand text so the data does not depend on any printf implementation. */
static size_t put_str(unsigned char *dst, size_t pos, size_t n, const char *s)
{
	while (*s && pos < n)
		dst[pos++] = (unsigned char)*s++;
	return pos;
}

static size_t put_num(unsigned char *dst, size_t pos, size_t n, unsigned int v, int width)
{
	char tmp[12];
	int i = 0;
	do {
		tmp[i++] = (char)('0' + v % 10);
		v /= 10;
	} while (v || i < width);
	while (i > 0 && pos < n)
		dst[pos++] = (unsigned char)tmp[--i];
	return pos;
}

static void generate(unsigned char *dst, size_t n)
{
	size_t pos = 0;
	unsigned int rec = 0;
	while (pos < n) {
		unsigned int kind = pick(20), k, count;
		if (kind < 13) {                /* a paragraph of words */
			count = 20 + pick(80);
			for (k = 0; k < count && pos < n; k++) {
				pos = put_str(dst, pos, n, words[pick(sizeof words / sizeof words[0])]);
				pos = put_str(dst, pos, n, k % 12 == 11 ? "\n" : " ");
			}
			pos = put_str(dst, pos, n, ".\n\n");
		} else if (kind < 19) {         /* rows of a table */
			count = 5 + pick(30);
			for (k = 0; k < count && pos < n; k++) {
				pos = put_str(dst, pos, n, "record ");
				pos = put_num(dst, pos, n, rec++, 6);
				pos = put_str(dst, pos, n, " city=");
				pos = put_str(dst, pos, n, cities[pick(8)]);
				pos = put_str(dst, pos, n, " weight=");
				pos = put_num(dst, pos, n, 40 + pick(60), 0);
				pos = put_str(dst, pos, n, ".");
				pos = put_num(dst, pos, n, pick(100), 2);
				pos = put_str(dst, pos, n, " flags=0x");
				pos = put_num(dst, pos, n, pick(8) * 1000 + pick(8), 4);
				pos = put_str(dst, pos, n, "\n");
			}
		} else {                        /* noise: bytes with no structure */
			count = 64 + pick(2000);
			for (k = 0; k < count && pos < n; k++)
				dst[pos++] = (unsigned char)next16();
		}
	}
}

/* ---- the workload ---- */

static void print_percent(unsigned long part, unsigned long whole)
{
	unsigned long long hundredths = whole ? ((unsigned long long)part * 10000 + whole / 2) / whole : 0;
	printf("%lu.%02lu%%", (unsigned long)(hundredths / 100), (unsigned long)(hundredths % 100));
}

static int round_trip(const unsigned char *data, size_t n, int bits)
{
	unsigned char *z = malloc(lzw_bound(n)), *back = 0;
	size_t zn, cap = 0;
	long clears, m;
	const char *err = 0;
	if (!z) {
		fprintf(stderr, "compress: out of memory\n");
		exit(1);
	}
	zn = lzw_compress(data, n, z, bits, &clears);
	printf("bits %d: compressed %lu bytes (", bits, (unsigned long)zn);
	print_percent((unsigned long)zn, (unsigned long)n);
	printf(" of input), %ld clears, crc32 %08x, ", clears, crc32(z, zn));
	m = lzw_decompress(z, zn, &back, &cap, &err);
	if (m < 0) {
		printf("round trip FAILED: %s\n", err);
		return 1;
	}
	if ((size_t)m != n || memcmp(back, data, n) != 0) {
		size_t i = 0;
		while (i < n && i < (size_t)m && back[i] == data[i])
			i++;
		printf("round trip FAILED: %ld bytes back, first difference at byte %lu\n", m, (unsigned long)i);
		return 1;
	}
	printf("round trip ok\n");
	free(z);
	free(back);
	return 0;
}

/* ---- filters ---- */

static unsigned char *read_all(size_t *np)
{
	size_t n = 0, cap = 65536;
	unsigned char *p = malloc(cap);
	for (;;) {
		ssize_t k;
		if (p && n == cap)
			p = realloc(p, cap *= 2);
		if (!p) {
			fprintf(stderr, "compress: out of memory\n");
			exit(1);
		}
		k = read(0, p + n, cap - n);
		if (k < 0) {
			perror("compress: read");
			exit(1);
		}
		if (k == 0)
			break;
		n += (size_t)k;
	}
	*np = n;
	return p;
}

static void write_all(const unsigned char *p, size_t n)
{
	while (n > 0) {
		ssize_t k = write(1, p, n);
		if (k <= 0) {
			perror("compress: write");
			exit(1);
		}
		p += k;
		n -= (size_t)k;
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: compress [-b bits] [nbytes] | compress -c [-b bits] | compress -d\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int bits = 16, mode = 0, i, status = 0;
	unsigned long nbytes = 300000;
	unsigned char *data;
	char *end;
	crc_init();
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-c") || !strcmp(argv[i], "-d")) {
			mode = argv[i][1];
		} else if (!strcmp(argv[i], "-b") && i + 1 < argc) {
			bits = (int)strtol(argv[++i], &end, 10);
			if (*end || bits < 10 || bits > LZW_MAX_BITS) {
				fprintf(stderr, "compress: -b needs a code width from 10 to %d (9 cannot work in this format)\n", LZW_MAX_BITS);
				return 2;
			}
		} else {
			usage();
		}
	}
	if (mode == 'c' || mode == 'd') {
		size_t n, cap = 0;
		unsigned char *in;
		if (i != argc)
			usage();
		in = read_all(&n);
		if (mode == 'c') {
			unsigned char *z = malloc(lzw_bound(n));
			long clears;
			if (!z) {
				fprintf(stderr, "compress: out of memory\n");
				return 1;
			}
			write_all(z, lzw_compress(in, n, z, bits, &clears));
		} else {
			unsigned char *out = 0;
			const char *err;
			long m = lzw_decompress(in, n, &out, &cap, &err);
			if (m < 0) {
				fprintf(stderr, "compress: stdin: %s\n", err);
				return 1;
			}
			write_all(out, (size_t)m);
		}
		return 0;
	}
	if (i < argc) {
		nbytes = strtoul(argv[i], &end, 10);
		if (*end || i + 1 != argc)
			usage();
	}
	data = malloc(nbytes ? nbytes : 1);
	if (!data) {
		fprintf(stderr, "compress: out of memory\n");
		return 1;
	}
	generate(data, nbytes);
	printf("input: %lu bytes of generated data, crc32 %08x\n", nbytes, crc32(data, nbytes));
	status |= round_trip(data, nbytes, bits);
	if (bits != 12)
		status |= round_trip(data, nbytes, 12);
	return status;
}
