/*
 * server [reportfd]: the server half of the client/server workload started by cs.
 *
 * Reads requests, one per line, from standard input and answers each with one line on standard
 * output, written with a single write(2) as soon as the request is complete: the client waits for
 * every reply before it sends the next request, so each message costs two context switches.
 * At end of input it writes "server: <n> requests, checksum <hex>" to reportfd (default 2),
 * the checksum being FNV-1a over every byte of every reply, and exits 0 (1 on an I/O error).
 *
 * Requests (numbers are unsigned decimal, arithmetic is modulo 2^32):
 *   ADD a b     -> OK a+b            MUL a b   -> OK a*b
 *   DIV a b     -> OK q r, or ERR division by zero
 *   GCD a b     -> OK gcd(a,b)       SORT n... -> OK the numbers in ascending order (at most 32)
 *   ECHO text   -> OK text           REV text  -> OK text reversed
 *   HASH text   -> OK FNV-1a of text, 8 lowercase hex digits
 *   anything else -> ERR unknown command
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXLINE 512
#define MAXSORT 32

typedef unsigned int u32;

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
			if (r < 0)
				fprintf(stderr, "server: read error\n");
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

/* Parses up to max unsigned numbers separated by blanks; returns how many, or -1 if malformed. */
static int numbers(const char *s, u32 *v, int max)
{
	int n = 0;

	for (;;) {
		char *end;
		unsigned long x;

		while (*s == ' ')
			s++;
		if (*s == '\0')
			return n;
		if (*s < '0' || *s > '9' || n == max)
			return -1;
		x = strtoul(s, &end, 10);
		v[n++] = (u32)x;
		s = end;
	}
}

static u32 gcd(u32 a, u32 b)
{
	while (b != 0) {
		u32 t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* Computes the reply to one request into out (without the newline). */
static void answer(char *req, char *out, size_t max)
{
	char *arg = strchr(req, ' ');
	u32 v[MAXSORT];
	int n;

	if (arg)
		*arg++ = '\0';
	else
		arg = req + strlen(req);

	if (strcmp(req, "ECHO") == 0) {
		snprintf(out, max, "OK %s", arg);
	} else if (strcmp(req, "REV") == 0) {
		size_t len = strlen(arg), i;
		memcpy(out, "OK ", 3);
		for (i = 0; i < len && i + 4 < max; i++)
			out[3 + i] = arg[len - 1 - i];
		out[3 + i] = '\0';
	} else if (strcmp(req, "HASH") == 0) {
		snprintf(out, max, "OK %08x", fnv1a(2166136261u, arg, strlen(arg)));
	} else if (strcmp(req, "SORT") == 0) {
		int i, j;
		size_t len;
		if ((n = numbers(arg, v, MAXSORT)) < 0) {
			snprintf(out, max, "ERR bad numbers");
			return;
		}
		for (i = 1; i < n; i++) {
			u32 x = v[i];
			for (j = i; j > 0 && v[j - 1] > x; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		len = (size_t)snprintf(out, max, "OK");
		for (i = 0; i < n && len < max; i++)
			len += (size_t)snprintf(out + len, max - len, " %u", v[i]);
	} else if (strcmp(req, "ADD") == 0 || strcmp(req, "MUL") == 0 || strcmp(req, "DIV") == 0 ||
	    strcmp(req, "GCD") == 0) {
		if (numbers(arg, v, 2) != 2) {
			snprintf(out, max, "ERR bad numbers");
			return;
		}
		if (req[0] == 'A')
			snprintf(out, max, "OK %u", v[0] + v[1]);
		else if (req[0] == 'M')
			snprintf(out, max, "OK %u", v[0] * v[1]);
		else if (req[0] == 'G')
			snprintf(out, max, "OK %u", gcd(v[0], v[1]));
		else if (v[1] == 0)
			snprintf(out, max, "ERR division by zero");
		else
			snprintf(out, max, "OK %u %u", v[0] / v[1], v[0] % v[1]);
	} else {
		snprintf(out, max, "ERR unknown command");
	}
}

int main(int argc, char **argv)
{
	char req[MAXLINE], reply[MAXLINE + 8];
	unsigned long count = 0;
	u32 sum = 2166136261u;
	int reportfd = argc > 1 ? atoi(argv[1]) : 2;
	char report[128];
	int n;

	while (readline(0, req, sizeof req) >= 0) {
		size_t len;
		answer(req, reply, sizeof reply - 1);
		len = strlen(reply);
		reply[len++] = '\n';
		sum = fnv1a(sum, reply, len);
		count++;
		if (writeall(1, reply, len) < 0) {
			fprintf(stderr, "server: write error\n");
			return 1;
		}
	}
	n = snprintf(report, sizeof report, "server: %lu requests, checksum %08x\n", count, sum);
	return writeall(reportfd, report, (size_t)n) < 0 ? 1 : 0;
}
