/*
 * egrep: search files for lines matching extended regular expressions.
 *
 *   egrep [-cvinlhqsx] [-e pattern]... [pattern] [file...]
 *
 *   -c  print only a count of selected lines      -v  select non-matching lines
 *   -i  ignore case (ASCII letters)                -n  prefix lines with their line number
 *   -l  print only the names of files with a selected line
 *   -h  never prefix file names                    -q  print nothing, exit status only
 *   -s  no messages about unreadable files         -x  the pattern must match the whole line
 *   -e  the next argument is a pattern (may repeat; "-" as a file is stdin)
 *
 * Exit status: 0 if a line was selected, 1 if none was, 2 on an error.
 *
 * Files are read with read(2) in large blocks; complete lines are searched in place by the lazy
 * DFA, so the per-byte cost is one table lookup.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "egrep.h"

#define READ_SIZE 65536

static int opt_count, opt_invert, opt_fold, opt_number, opt_list, opt_nonames, opt_quiet;
static int opt_silent, opt_whole;
static int show_names;
static struct dfa dfa;
static char *buf;
static size_t bufcap;

static void usage(void)
{
	fprintf(stderr, "usage: egrep [-cvinlhqsx] [-e pattern]... [pattern] [file...]\n");
	exit(2);
}

static void write_out(const char *s, size_t n)
{
	if (n && fwrite(s, 1, n, stdout) != n) {
		perror("egrep: write");
		exit(2);
	}
}

static void print_selected(const char *name, long lineno, const char *line, const char *end)
{
	if (show_names)
		printf("%s:", name);
	if (opt_number)
		printf("%ld:", lineno);
	write_out(line, (size_t)(end - line));
	putchar('\n');
}

/*
 * Searches the complete lines in [p, q) (q[-1] == '\n'). Returns the number of lines selected;
 * stops early, returning a positive count, in -l and -q modes.
 */
static long search_lines(const char *name, const unsigned char *p, const unsigned char *q, long *lineno)
{
	const int *trans;
	long selected = 0;
	while (p < q) {
		const unsigned char *line = p;
		int s = dfa.start, t, matched;
		if (dfa.start_accepts) {
			t = DFA_ACCEPT;
		} else {
			trans = dfa.trans;
			for (;;) {
				t = trans[s * 256 + *p++];
				if (t >= 0) {
					s = t;
					continue;
				}
				if (t != DFA_UNKNOWN)
					break;
				t = dfa_step(&dfa, s, p[-1]);
				trans = dfa.trans;
				if (t < 0)
					break;
				s = t;
			}
		}
		if (t == DFA_ACCEPT) {
			/* p is past the byte that made the match complete, which is not '\n' */
			matched = 1;
			p = (const unsigned char *)memchr(p, '\n', (size_t)(q - p)) + 1;
		} else {
			matched = dfa.acc_eol[s];
		}
		++*lineno;
		if (matched != opt_invert) {
			selected++;
			if (opt_list || opt_quiet)
				return selected;
			if (!opt_count)
				print_selected(name, *lineno, (const char *)line, (const char *)p - 1);
		}
	}
	return selected;
}

/* Searches one open file; returns the number of selected lines or -1 on a read error. */
static long search_fd(int fd, const char *name)
{
	size_t keep = 0;
	long lineno = 0, selected = 0;
	for (;;) {
		ssize_t n;
		size_t end, last;
		if (bufcap - keep < READ_SIZE + 1) {
			bufcap = keep + READ_SIZE + 1 > 2 * bufcap ? keep + READ_SIZE + 1 : 2 * bufcap;
			buf = realloc(buf, bufcap);
			if (!buf) {
				fprintf(stderr, "egrep: out of memory\n");
				exit(2);
			}
		}
		n = read(fd, buf + keep, READ_SIZE);
		if (n < 0) {
			if (!opt_silent)
				perror(name);
			return -1;
		}
		if (n == 0) {
			if (keep) {             /* last line without a newline */
				buf[keep] = '\n';
				selected += search_lines(name, (unsigned char *)buf, (unsigned char *)buf + keep + 1, &lineno);
			}
			return selected;
		}
		end = keep + (size_t)n;
		last = end;
		while (last > keep && buf[last - 1] != '\n')
			last--;
		if (last == keep) {             /* no newline in the new data: read more */
			keep = end;
			continue;
		}
		selected += search_lines(name, (unsigned char *)buf, (unsigned char *)buf + last, &lineno);
		if (selected && (opt_list || opt_quiet))
			return selected;
		memmove(buf, buf + last, end - last);
		keep = end - last;
	}
}

int main(int argc, char **argv)
{
	char **patterns = malloc((size_t)argc * sizeof *patterns);
	static char *stdin_only[] = { "-" };
	char **files;
	int npatterns = 0, i, status = 1, nfiles;
	struct nfa nfa;
	const char *err;
	if (!patterns)
		return 2;
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1] != '\0'; i++) {
		const char *o;
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		for (o = argv[i] + 1; *o; o++) {
			switch (*o) {
			case 'c': opt_count = 1; continue;
			case 'v': opt_invert = 1; continue;
			case 'i': opt_fold = 1; continue;
			case 'n': opt_number = 1; continue;
			case 'l': opt_list = 1; continue;
			case 'h': opt_nonames = 1; continue;
			case 'q': opt_quiet = 1; continue;
			case 's': opt_silent = 1; continue;
			case 'x': opt_whole = 1; continue;
			case 'e':               /* the pattern is the rest of this argument or the next */
				if (o[1])
					patterns[npatterns++] = (char *)o + 1;
				else if (++i < argc)
					patterns[npatterns++] = argv[i];
				else
					usage();
				break;
			default:
				fprintf(stderr, "egrep: unknown option -%c\n", *o);
				usage();
			}
			break;
		}
	}
	if (npatterns == 0) {
		if (i >= argc)
			usage();
		patterns[npatterns++] = argv[i++];
	}
	err = nfa_compile(&nfa, patterns, npatterns, opt_fold, opt_whole);
	if (err) {
		fprintf(stderr, "egrep: %s\n", err);
		return 2;
	}
	dfa_init(&dfa, &nfa);
	files = argv + i;
	nfiles = argc - i;
	show_names = nfiles > 1 && !opt_nonames;
	if (nfiles == 0) {
		files = stdin_only;
		nfiles = 1;
	}
	for (i = 0; i < nfiles; i++) {
		const char *name = files[i];
		int fd = 0, isstdin = !strcmp(name, "-");
		long n;
		if (isstdin) {
			name = "(standard input)";
		} else if ((fd = open(name, O_RDONLY)) < 0) {
			if (!opt_silent)
				perror(name);
			status = 2;
			continue;
		}
		n = search_fd(fd, name);
		if (!isstdin)
			close(fd);
		if (n < 0) {
			status = 2;
			continue;
		}
		if (n > 0 && status == 1)
			status = 0;
		if (opt_quiet && n > 0)
			break;
		if (opt_list) {
			if (n > 0)
				printf("%s\n", name);
		} else if (opt_count && !opt_quiet) {
			if (show_names)
				printf("%s:", name);
			printf("%ld\n", n);
		}
	}
	if (fflush(stdout) != 0) {
		perror("egrep: write");
		return 2;
	}
	return status;
}
