/*
 * echo [-n] [arg ...]: writes its arguments separated by single blanks, then a newline unless the
 * first argument is exactly "-n" (4.4BSD echo: no other options, no backslash escapes).
 */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	int nflag = 0;
	int i = 1;

	if (argc > 1 && strcmp(argv[1], "-n") == 0) {
		nflag = 1;
		i = 2;
	}
	for (; i < argc; i++) {
		fputs(argv[i], stdout);
		if (i + 1 < argc)
			putchar(' ');
	}
	if (!nflag)
		putchar('\n');
	if (fflush(stdout) != 0 || ferror(stdout))
		return 1;
	return 0;
}
