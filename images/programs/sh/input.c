/*
 * The shell's input: a string in memory (sh -c, or a script file read whole), or standard input.
 * Standard input is read one byte at a time, never past the end of the current line, so that the
 * commands the shell starts read the rest of it themselves (as `sh < script` needs when a command
 * in the script reads its standard input).
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include "sh.h"

static const char *str;
static size_t strlen_, strpos;
static int from_fd0;
static int pushback[2];
static int npushback;

void input_string(const char *s, size_t len)
{
	str = s;
	strlen_ = len;
	strpos = 0;
	from_fd0 = 0;
	npushback = 0;
}

void input_fd0(void)
{
	from_fd0 = 1;
	npushback = 0;
}

int in_getc(void)
{
	if (npushback > 0)
		return pushback[--npushback];
	if (!from_fd0)
		return strpos < strlen_ ? (unsigned char)str[strpos++] : EOF;
	for (;;) {
		unsigned char c;
		ssize_t n = read(0, &c, 1);
		if (n == 1)
			return c;
		if (n < 0 && errno == EINTR)
			continue;
		return EOF;
	}
}

/* Pushes c back (at most two characters); EOF is not pushed. */
void in_ungetc(int c)
{
	if (c != EOF && npushback < 2)
		pushback[npushback++] = c;
}
