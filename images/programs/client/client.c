/*
 * client count [reportfd]: the client half of the client/server workload started by cs.
 *
 * Sends count requests (protocol: see server.c) on standard output, each with one write(2), and
 * reads the one-line reply from standard input before sending the next (strict ping-pong).
 * The requests come from a fixed pseudo-random sequence (xorshift32, same on every machine);
 * the client computes every expected reply itself, by its own means, and compares.
 * At the end it writes "client: <count> requests, <n> verified, checksum <hex>" to reportfd
 * (default 2), the checksum being FNV-1a over every byte of every reply received, and exits
 * (the server then sees end of input). Exit status 0 if every reply was as
 * expected, 1 otherwise (each mismatch is reported on standard error).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXLINE 512
#define MAXSORT 16

typedef unsigned int u32;

static u32 rng = 0x2545f491u;

static u32 next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static char inbuf[4096];
static size_t inlen, inpos;

/* Reads one line (without its newline) into line. Returns its length, or -1 at end of input. */
static int readline(int fd, char *line, size_t max)
{
	size_t n = 0;

	for (;;) {
		while (inpos < inlen) {
			char c = inbuf[inpos++];
			if (c == '\n') {
				line[n] = '\0';
				return (int)n;
			}
			if (n + 1 < max)
				line[n++] = c;
		}
		for (;;) {
			ssize_t r = read(fd, inbuf, sizeof inbuf);
			if (r > 0) {
				inlen = (size_t)r;
				inpos = 0;
				break;
			}
			if (r < 0 && errno == EINTR)
				continue;
			return -1;
		}
	}
}

static int writeall(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static u32 fnv1a(u32 h, const char *p, size_t n)
{
	while (n-- > 0) {
		h ^= (unsigned char)*p++;
		h *= 16777619u;
	}
	return h;
}

/* Binary GCD (Stein): a different algorithm from the server's Euclid. */
static u32 gcd(u32 a, u32 b)
{
	int shift = 0;

	if (a == 0)
		return b;
	if (b == 0)
		return a;
	while (((a | b) & 1) == 0) {
		a >>= 1;
		b >>= 1;
		shift++;
	}
	while ((a & 1) == 0)
		a >>= 1;
	do {
		while ((b & 1) == 0)
			b >>= 1;
		if (a > b) {
			u32 t = a;
			a = b;
			b = t;
		}
		b -= a;
	} while (b != 0);
	return a << shift;
}

static int cmpu32(const void *x, const void *y)
{
	u32 a = *(const u32 *)x, b = *(const u32 *)y;
	return a < b ? -1 : a > b;
}

/* A random text of lowercase words separated by single blanks, 1 to 60 characters. */
static void text(char *t)
{
	int len = 1 + (int)(next() % 60), i;

	for (i = 0; i < len; i++)
		t[i] = (next() % 6 == 0 && i > 0 && i + 1 < len && t[i - 1] != ' ') ? ' ' : (char)('a' + next() % 26);
	t[len] = '\0';
}

/* Small numbers often, large ones sometimes, so that products and sums wrap around. */
static u32 number(void)
{
	u32 r = next();
	return (r & 3) == 0 ? next() : r % 10000;
}

/* The next request into req and the reply expected for it into exp. */
static void make_request(char *req, char *exp, size_t max)
{
	u32 kind = next() % 100, a = number(), b = number();
	char t[64];

	if (kind < 15) {
		snprintf(req, max, "ADD %u %u", a, b);
		snprintf(exp, max, "OK %u", (u32)(a + b));
	} else if (kind < 30) {
		snprintf(req, max, "MUL %u %u", a, b);
		snprintf(exp, max, "OK %u", (u32)(a * b));
	} else if (kind < 40) {
		if (next() % 8 == 0)
			b = 0;
		snprintf(req, max, "DIV %u %u", a, b);
		if (b == 0)
			snprintf(exp, max, "ERR division by zero");
		else
			snprintf(exp, max, "OK %u %u", a / b, a - (a / b) * b);
	} else if (kind < 50) {
		a = (a % 1000) * 36;
		b = (b % 1000) * 24;
		snprintf(req, max, "GCD %u %u", a, b);
		snprintf(exp, max, "OK %u", gcd(a, b));
	} else if (kind < 65) {
		u32 v[MAXSORT];
		int n = 1 + (int)(next() % MAXSORT), i;
		size_t rl, el;
		rl = (size_t)snprintf(req, max, "SORT");
		for (i = 0; i < n; i++) {
			v[i] = next() % 1000;
			rl += (size_t)snprintf(req + rl, max - rl, " %u", v[i]);
		}
		qsort(v, (size_t)n, sizeof v[0], cmpu32);
		el = (size_t)snprintf(exp, max, "OK");
		for (i = 0; i < n; i++)
			el += (size_t)snprintf(exp + el, max - el, " %u", v[i]);
	} else if (kind < 78) {
		text(t);
		snprintf(req, max, "ECHO %s", t);
		snprintf(exp, max, "OK %s", t);
	} else if (kind < 88) {
		size_t n, i;
		text(t);
		snprintf(req, max, "REV %s", t);
		n = strlen(t);
		for (i = 0; i < n / 2; i++) {
			char c = t[i];
			t[i] = t[n - 1 - i];
			t[n - 1 - i] = c;
		}
		snprintf(exp, max, "OK %s", t);
	} else if (kind < 98) {
		text(t);
		snprintf(req, max, "HASH %s", t);
		snprintf(exp, max, "OK %08x", fnv1a(2166136261u, t, strlen(t)));
	} else {
		snprintf(req, max, "NOP %u", a);
		snprintf(exp, max, "ERR unknown command");
	}
}

int main(int argc, char **argv)
{
	char req[MAXLINE], exp[MAXLINE], reply[MAXLINE];
	unsigned long count, i, verified = 0;
	u32 sum = 2166136261u;
	int reportfd = argc > 2 ? atoi(argv[2]) : 2;
	char report[128];
	int n;

	if (argc < 2) {
		fprintf(stderr, "usage: client count [reportfd]\n");
		return 2;
	}
	count = strtoul(argv[1], NULL, 10);
	for (i = 0; i < count; i++) {
		size_t len;
		int rl;

		make_request(req, exp, sizeof req);
		len = strlen(req);
		req[len++] = '\n';
		if (writeall(1, req, len) < 0) {
			fprintf(stderr, "client: write error at request %lu\n", i + 1);
			break;
		}
		if ((rl = readline(0, reply, sizeof reply)) < 0) {
			fprintf(stderr, "client: no reply to request %lu\n", i + 1);
			break;
		}
		sum = fnv1a(sum, reply, (size_t)rl);
		sum = fnv1a(sum, "\n", 1);
		if (strcmp(reply, exp) == 0)
			verified++;
		else
			fprintf(stderr, "client: request %lu: got \"%s\", expected \"%s\"\n", i + 1, reply, exp);
	}
	n = snprintf(report, sizeof report, "client: %lu requests, %lu verified, checksum %08x\n", count, verified, sum);
	if (writeall(reportfd, report, (size_t)n) < 0)
		return 1;
	close(1);
	return verified == count ? 0 : 1;
}
