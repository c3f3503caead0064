/*
 * cat [file ...]: copies each file, or standard input for "-" or when there are no arguments, to
 * standard output. Unbuffered in the 4.4BSD sense: data moves with read(2)/write(2) through one
 * buffer, so cat in a pipeline passes data on as soon as it arrives.
 *
 * Exit status: 0, or 1 if a file could not be opened or read, or standard output could not be
 * written (a write error ends the copy: there is nobody left to read it).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char buf[16384];

/* Writes all n bytes, retrying short writes; returns 0, or -1 on a write error. */
static int writeall(const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(1, p, n);
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

/* Copies fd to standard output. Returns 0, 1 on a read error, 2 on a write error. */
static int copy(int fd)
{
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n == 0)
			return 0;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return 1;
		}
		if (writeall(buf, (size_t)n) < 0)
			return 2;
	}
}

int main(int argc, char **argv)
{
	int status = 0;
	int i;

	if (argc < 2)
		return copy(0) == 0 ? 0 : 1;
	for (i = 1; i < argc; i++) {
		const char *name = argv[i];
		int fd, r;

		if (strcmp(name, "-") == 0)
			fd = 0;
		else if ((fd = open(name, O_RDONLY)) < 0) {
			fprintf(stderr, "cat: %s: cannot open\n", name);
			status = 1;
			continue;
		}
		r = copy(fd);
		if (fd != 0)
			close(fd);
		if (r == 1) {
			fprintf(stderr, "cat: %s: read error\n", name);
			status = 1;
		} else if (r == 2) {
			fprintf(stderr, "cat: write error\n");
			return 1;
		}
	}
	return status;
}
