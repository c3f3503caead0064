/*
 * getopt and getopt_long, getopt_long_only: short-option clusters, attached and separate
 * arguments, optional arguments, unknown options and missing arguments (with and without a
 * leading ':'), "--", long options with "=" and separate arguments, unique prefixes, flags, and
 * GNU ordering (operands before options are moved after them). Diagnostics are off (opterr 0):
 * only the results are compared. Plain getopt is given its options first, where POSIX and
 * glibc's permuting getopt agree.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "libctest.h"

#define MAXARGS 16

static void run_short(const char *optstring, const char *const *args)
{
  char *argv[MAXARGS + 1];
  int argc = 0, c;
  while (args[argc]) {
    argv[argc] = (char *)args[argc];
    argc++;
  }
  argv[argc] = NULL;
  optind = 0;   /* restart the scan */
  opterr = 0;
  printf("getopt \"%s\":", optstring);
  while ((c = getopt(argc, argv, optstring)) != -1) {
    if (c == '?' || c == ':') printf(" %c(optopt %c)", c, optopt);
    else printf(" %c", c);
    if (optarg) printf("=[%s]", optarg);
  }
  printf(" | optind %d:", optind);
  for (int i = optind; i < argc; i++) printf(" %s", argv[i]);
  printf("\n");
}

static int verbose_flag;

static const struct option longopts[] = {
  { "verbose", no_argument, &verbose_flag, 1 },
  { "name", required_argument, NULL, 'n' },
  { "size", required_argument, NULL, 's' },
  { "color", optional_argument, NULL, 'c' },
  { "colour", optional_argument, NULL, 'c' },
  { "all", no_argument, NULL, 'a' },
  { "alpha", no_argument, NULL, 'A' },
  { NULL, 0, NULL, 0 },
};

static void run_long(int only, const char *optstring, const char *const *args)
{
  char *argv[MAXARGS + 1];
  int argc = 0, c, idx;
  while (args[argc]) {
    argv[argc] = (char *)args[argc];
    argc++;
  }
  argv[argc] = NULL;
  optind = 0;
  opterr = 0;
  verbose_flag = 0;
  printf("getopt_long%s \"%s\":", only ? "_only" : "", optstring);
  for (;;) {
    idx = -1;
    c = only ? getopt_long_only(argc, argv, optstring, longopts, &idx) : getopt_long(argc, argv, optstring, longopts, &idx);
    if (c == -1) break;
    if (c == 0) printf(" flag(%s)=%d", longopts[idx].name, verbose_flag);
    else if (c == '?' || c == ':') printf(" %c(optopt %d)", c, optopt);
    else printf(" %c", c < ' ' ? '#' : c);
    if (c != '?' && c != ':' && idx >= 0) printf("[#%d]", idx);
    if (optarg) printf("=[%s]", optarg);
  }
  printf(" | optind %d:", optind);
  for (int i = 1; i < argc; i++) printf(" %s", argv[i]);
  printf("\n");
}

void test_getopt(void)
{
  run_short("ab:c::d", (const char *const[]){ "p", "-a", "-b", "x", "-cy", "-c", "-d", "op1", "op2", NULL });
  run_short("ab:c::d", (const char *const[]){ "p", "-abfoo", "-adb", "bar", "--", "-a", NULL });
  run_short("ab:", (const char *const[]){ "p", "-a", "-z", "-b", NULL });
  run_short(":ab:", (const char *const[]){ "p", "-z", "-a", "-b", NULL });
  run_short("+ab", (const char *const[]){ "p", "-", "-a", NULL });
  run_short("ab", (const char *const[]){ "p", NULL });
  run_short("+ab", (const char *const[]){ "p", "-a", "file", "-b", NULL });
  run_short("a:", (const char *const[]){ "p", "-a", "-b", "-a", NULL });

  run_long(0, "ab:n:", (const char *const[]){ "p", "--verbose", "--name=joe", "--size", "3", "-a", "f1", NULL });
  run_long(0, "ab:", (const char *const[]){ "p", "f1", "--all", "f2", "-b", "7", "f3", "--", "-a", NULL });
  run_long(0, "a", (const char *const[]){ "p", "--col=red", "--colo", "--colour", "--al", NULL });
  run_long(0, "a", (const char *const[]){ "p", "--verb", "--nosuch", "--name", NULL });
  run_long(0, ":a", (const char *const[]){ "p", "--size", NULL });
  run_long(0, "a", (const char *const[]){ "p", "--all=yes", "x", NULL });
  run_long(0, "+a", (const char *const[]){ "p", "-a", "x", "--all", NULL });
  run_long(0, "-a", (const char *const[]){ "p", "x", "-a", "y", NULL });
  run_long(1, "ab:", (const char *const[]){ "p", "-all", "-name", "x", "-a", "-b", "5", "-size=2", NULL });
  run_long(1, "ab:", (const char *const[]){ "p", "-alp", "--all", "z", NULL });
}
