/*
 * wc [-lwc] [file ...]: counts lines (newline characters), words (maximal runs of characters that
 * are not space, tab, newline, vertical tab, form feed or carriage return) and bytes of each file,
 * or of standard input when there are no files ("-" also names standard input).
 *
 * Output is 4.4BSD wc's: for each file the selected counts, each right-aligned in an 8-character
 * column (a blank then 7 digits), in the order lines, words, bytes whatever the order of the
 * options, then a blank and the file name (no name for standard input without arguments). With
 * more than one file a last line gives the totals, named "total". With no option all three counts
 * are shown. Exit status 0, or 1 if a file could not be opened or read (its line is left out).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct counts {
	unsigned long lines, words, bytes;
};

static int lflag, wflag, cflag;
static unsigned char buf[16384];

static int isblankchar(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* Counts fd into *c. Returns 0, or -1 on a read error. */
static int count(int fd, struct counts *c)
{
	int inword = 0;

	c->lines = c->words = c->bytes = 0;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);
		ssize_t i;

		if (n == 0)
			return 0;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		c->bytes += (unsigned long)n;
		for (i = 0; i < n; i++) {
			unsigned char ch = buf[i];
			if (ch == '\n')
				c->lines++;
			if (isblankchar(ch))
				inword = 0;
			else if (!inword) {
				inword = 1;
				c->words++;
			}
		}
	}
}

static void report(const struct counts *c, const char *name)
{
	if (lflag)
		printf(" %7lu", c->lines);
	if (wflag)
		printf(" %7lu", c->words);
	if (cflag)
		printf(" %7lu", c->bytes);
	if (name)
		printf(" %s", name);
	putchar('\n');
}

static void usage(void)
{
	fprintf(stderr, "usage: wc [-clw] [file ...]\n");
}

int main(int argc, char **argv)
{
	struct counts c, total = { 0, 0, 0 };
	int status = 0, nfiles, i;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1] != '\0'; i++) {
		const char *p = argv[i] + 1;
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		for (; *p; p++) {
			switch (*p) {
			case 'l': lflag = 1; break;
			case 'w': wflag = 1; break;
			case 'c': cflag = 1; break;
			default:
				fprintf(stderr, "wc: unknown option -%c\n", *p);
				usage();
				return 1;
			}
		}
	}
	if (!lflag && !wflag && !cflag)
		lflag = wflag = cflag = 1;

	nfiles = argc - i;
	if (nfiles == 0) {
		if (count(0, &c) < 0) {
			fprintf(stderr, "wc: stdin: read error\n");
			return 1;
		}
		report(&c, NULL);
		return fflush(stdout) == 0 ? 0 : 1;
	}
	for (; i < argc; i++) {
		const char *name = argv[i];
		int fd = strcmp(name, "-") == 0 ? 0 : open(name, O_RDONLY);

		if (fd < 0) {
			fprintf(stderr, "wc: %s: cannot open\n", name);
			status = 1;
			continue;
		}
		if (count(fd, &c) < 0) {
			fprintf(stderr, "wc: %s: read error\n", name);
			status = 1;
		} else {
			report(&c, name);
			total.lines += c.lines;
			total.words += c.words;
			total.bytes += c.bytes;
		}
		if (fd != 0)
			close(fd);
	}
	if (nfiles > 1)
		report(&total, "total");
	if (fflush(stdout) != 0)
		status = 1;
	return status;
}
