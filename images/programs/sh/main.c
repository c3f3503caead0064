/*
 * sh: entry point, invocation and the read-parse-run loop. The language is described in sh.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sh.h"

extern char **environ;

char *arg0;
char **posargs;
int nposargs;
int laststatus;
long shellpid;
long lastbgpid;

void xwrite(int fd, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, s, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		s += w;
		n -= (size_t)w;
	}
}

void sh_error(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	memcpy(buf, "sh: ", 4);
	va_start(ap, fmt);
	n = vsnprintf(buf + 4, sizeof buf - 5, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if (n > (int)sizeof buf - 6)
		n = (int)sizeof buf - 6;
	buf[4 + n] = '\n';
	xwrite(2, buf, (size_t)n + 5);
}

/* Reads a whole script file into memory (the shell keeps no descriptor open on it). */
static char *readfile(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY);
	size_t cap = 4096, n = 0;
	char *buf;

	if (fd < 0)
		return NULL;
	buf = malloc(cap);
	for (;;) {
		ssize_t r;
		if (buf == NULL) {
			sh_error("out of memory");
			exit(2);
		}
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			continue;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*len = n;
	return buf;
}

static void usage(void)
{
	sh_error("usage: sh [-c command [name [arg ...]] | -s [arg ...] | script [arg ...]]");
	exit(2);
}

int main(int argc, char **argv)
{
	shellpid = (long)getpid();
	var_import(environ);
	arg0 = argv[0] ? argv[0] : "sh";

	if (argc > 1 && strcmp(argv[1], "-c") == 0) {
		if (argc < 3)
			usage();
		input_string(argv[2], strlen(argv[2]));
		if (argc > 3) {
			arg0 = argv[3];
			posargs = argv + 4;
			nposargs = argc - 4;
		}
	} else if (argc == 1 || strcmp(argv[1], "-s") == 0) {
		input_fd0();
		posargs = argv + (argc > 1 ? 2 : 1);
		nposargs = argc > 1 ? argc - 2 : 0;
	} else if (argv[1][0] == '-' && argv[1][1] != '\0') {
		usage();
	} else {
		size_t len;
		char *text = readfile(argv[1], &len);
		if (text == NULL) {
			sh_error("%s: cannot open", argv[1]);
			exit(127);
		}
		input_string(text, len);
		arg0 = argv[1];
		posargs = argv + 2;
		nposargs = argc - 2;
	}

	for (;;) {
		struct list *l;
		int r;

		jobs_reap_nohang();
		r = parse_line(&l);
		if (r == 0)
			break;
		if (r < 0) {
			laststatus = 2;
			break;
		}
		if (l)
			run_list(l);
		streset();
	}
	exit(laststatus);
}
