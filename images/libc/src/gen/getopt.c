/*
 * Command-line options: getopt (POSIX.1, with 4.4BSD's optreset) and getopt_long,
 * getopt_long_only (the GNU interface).
 *
 * getopt stops at the first operand, as POSIX says. getopt_long and getopt_long_only permute
 * as GNU's do: operands met before options are passed over and, when the scan ends, moved after
 * the options, so that optind then indexes the first operand. A leading '+' in optstring (or
 * POSIXLY_CORRECT in the environment) stops at the first operand instead; a leading '-'
 * returns every operand in order as the argument of an option 1. A ':' after those makes a
 * missing argument return ':' and turns the diagnostics off. Setting optind to 0, or optreset to
 * 1, restarts the scan.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *optarg;
int optind = 1, opterr = 1, optopt = '?', optreset;

#define F_PERMUTE	1	/* GNU ordering: pass over operands, move them last */
#define F_ALLARGS	2	/* '-': operands are returned as option 1 */
#define F_LONGONLY	4	/* getopt_long_only: "-name" is tried as a long option first */

static char *place = "";	/* the rest of the current cluster of short options */
static int nonopt_start = -1;	/* operands passed over: argv[nonopt_start .. nonopt_end) */
static int nonopt_end = -1;

/* Rotates argv[start .. end) so that argv[mid .. end) comes first. */
static void
permute(char *const argv[], int start, int mid, int end)
{
	char **v = (char **)argv;

	while (mid < end) {
		char *t = v[mid];
		int i;

		for (i = mid; i > start; i--)
			v[i] = v[i - 1];
		v[start++] = t;
		mid++;
	}
}

/*
 * Ends the scan: the operands passed over are moved after the options that followed them and
 * optind indexes the first of them.
 */
static int
finish(char *const argv[])
{
	place = "";
	if (nonopt_start != -1) {
		if (nonopt_end != -1) {
			permute(argv, nonopt_start, nonopt_end, optind);
			optind = nonopt_start + (optind - nonopt_end);
		} else {
			optind = nonopt_start;
		}
	}
	nonopt_start = nonopt_end = -1;
	return -1;
}

static void
warn(const char *prog, const char *fmt, const char *s, int c)
{
	fprintf(stderr, "%s: ", prog);
	if (s)
		fprintf(stderr, fmt, s);
	else
		fprintf(stderr, fmt, c);
	fputc('\n', stderr);
}

/* A long option at place (its name up to '=' or the end): returns as getopt_long does. */
static int
longopt(int argc, char *const argv[], const struct option *lo, int *longindex, int quiet, int missing, int dashes)
{
	const char *name = place, *eq = strchr(name, '=');
	size_t n = eq ? (size_t)(eq - name) : strlen(name);
	int i, match = -1, ambiguous = 0;

	for (i = 0; lo[i].name; i++) {
		if (strncmp(lo[i].name, name, n) != 0)
			continue;
		if (strlen(lo[i].name) == n) {
			match = i;
			ambiguous = 0;
			break;
		}
		if (match == -1)
			match = i;
		else if (lo[i].has_arg != lo[match].has_arg || lo[i].flag != lo[match].flag || lo[i].val != lo[match].val)
			ambiguous = 1;
	}
	place = "";
	optind++;
	if (match == -1 || ambiguous) {
		optopt = 0;
		if (!quiet)
			warn(argv[0], ambiguous ? "option '%s' is ambiguous" : "unrecognized option '%s'", argv[optind - 1], 0);
		return '?';
	}
	optopt = lo[match].val;
	optarg = 0;
	if (eq) {
		if (lo[match].has_arg == no_argument) {
			if (!quiet)
				fprintf(stderr, "%s: option '%s%s' doesn't allow an argument\n", argv[0], dashes ? "--" : "-", lo[match].name);
			return '?';
		}
		optarg = (char *)eq + 1;
	} else if (lo[match].has_arg == required_argument) {
		if (optind >= argc) {
			if (!quiet)
				fprintf(stderr, "%s: option '%s%s' requires an argument\n", argv[0], dashes ? "--" : "-", lo[match].name);
			return missing;
		}
		optarg = argv[optind++];
	}
	if (longindex)
		*longindex = match;
	if (lo[match].flag) {
		*lo[match].flag = lo[match].val;
		return 0;
	}
	return lo[match].val;
}

static int
getopt_internal(int argc, char *const argv[], const char *optstring, const struct option *lo, int *longindex, int flags)
{
	const char *oli;
	int c, quiet, missing;

	if (*optstring == '+') {
		flags &= ~F_PERMUTE;
		optstring++;
	} else if (*optstring == '-') {
		flags |= F_ALLARGS;
		optstring++;
	} else if ((flags & F_PERMUTE) && getenv("POSIXLY_CORRECT")) {
		flags &= ~F_PERMUTE;
	}
	quiet = !opterr || *optstring == ':';
	missing = *optstring == ':' ? ':' : '?';
	if (optreset || optind == 0) {
		optind = optind == 0 ? 1 : optind;
		optreset = 0;
		place = "";
		nonopt_start = nonopt_end = -1;
	}
	optarg = 0;
	if (*place == '\0') {
		for (;;) {
			char *arg;

			if (optind >= argc)
				return finish(argv);
			arg = argv[optind];
			if (arg[0] == '-' && arg[1] != '\0')
				break;
			/* An operand. */
			if (flags & F_ALLARGS) {
				optarg = arg;
				optind++;
				return 1;
			}
			if (!(flags & F_PERMUTE))
				return -1;
			if (nonopt_start == -1) {
				nonopt_start = optind;
			} else if (nonopt_end != -1) {
				permute(argv, nonopt_start, nonopt_end, optind);
				nonopt_start += optind - nonopt_end;
				nonopt_end = -1;
			}
			optind++;
		}
		if (nonopt_start != -1 && nonopt_end == -1)
			nonopt_end = optind;
		place = argv[optind] + 1;
		if (strcmp(argv[optind], "--") == 0) {
			optind++;
			return finish(argv);
		}
		if (lo && place[0] == '-') {
			place++;
			return longopt(argc, argv, lo, longindex, quiet, missing, 1);
		}
		if (lo && (flags & F_LONGONLY)) {
			const struct option *o;
			size_t n = strcspn(place, "=");

			/* "-name" is a long option when it names one, or when it is no short option. */
			for (o = lo; o->name; o++)
				if (strncmp(o->name, place, n) == 0)
					break;
			if (o->name && (place[1] != '\0' || strchr(optstring, place[0]) == NULL))
				return longopt(argc, argv, lo, longindex, quiet, missing, 0);
		}
	}
	c = (unsigned char)*place++;
	oli = c == ':' ? NULL : strchr(optstring, c);
	if (oli == NULL) {
		optopt = c;
		if (*place == '\0')
			optind++;
		if (!quiet)
			warn(argv[0], "invalid option -- '%c'", NULL, c);
		return '?';
	}
	if (oli[1] != ':') {
		if (*place == '\0')
			optind++;
		return c;
	}
	if (*place != '\0') {
		optarg = place;
	} else if (oli[2] == ':') {
		optarg = 0;		/* an optional argument must be attached */
	} else if (optind + 1 < argc) {
		optarg = argv[++optind];
	} else {
		optopt = c;
		place = "";
		optind++;
		if (!quiet)
			warn(argv[0], "option requires an argument -- '%c'", NULL, c);
		return missing;
	}
	place = "";
	optind++;
	return c;
}

int
getopt(int argc, char *const argv[], const char *optstring)
{
	return getopt_internal(argc, argv, optstring, NULL, NULL, 0);
}

int
getopt_long(int argc, char *const argv[], const char *optstring, const struct option *longopts, int *longindex)
{
	return getopt_internal(argc, argv, optstring, longopts, longindex, F_PERMUTE);
}

int
getopt_long_only(int argc, char *const argv[], const char *optstring, const struct option *longopts, int *longindex)
{
	return getopt_internal(argc, argv, optstring, longopts, longindex, F_PERMUTE | F_LONGONLY);
}
