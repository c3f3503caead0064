/*
 * POSIX library functions: random (glibc's sequences), the drand48 family, basename and dirname,
 * realpath, mkstemp, mkdtemp, tmpnam, tmpfile, strsignal, popen, pclose, system, the password
 * and group files, sysconf, times. Results that differ between systems by design (file names
 * made up at random, the accounts of the host) are checked for their properties only.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <libgen.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <unistd.h>
#include "libctest.h"

static void test_random(void)
{
  static char st8[8], st32[32], st64[64], st128[128], st256[256];
  static const unsigned seeds[] = { 0, 1, 2, 12345, 0x7fffffff, 0xffffffff };
  for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
    srandom(seeds[i]);
    printf("srandom(%u):", seeds[i]);
    for (int k = 0; k < 6; k++) printf(" %ld", random());
    printf("\n");
  }
  char *const bufs[] = { st8, st32, st64, st128, st256 };
  const size_t sizes[] = { sizeof st8, sizeof st32, sizeof st64, sizeof st128, sizeof st256 };
  for (int i = 0; i < 5; i++) {
    initstate(42, bufs[i], sizes[i]);
    printf("initstate(42, %zu):", sizes[i]);
    for (int k = 0; k < 5; k++) printf(" %ld", random());
    printf("\n");
  }
  /* setstate resumes a saved generator where it stopped. */
  initstate(7, st64, sizeof st64);
  random();
  char *prev = setstate(st128);
  long a = random();
  setstate(prev);
  long b = random();
  setstate(st128);
  printf("setstate: %ld %ld %ld\n", a, b, random());
  block_begin("random-long");
  srandom(99);
  for (int k = 0; k < 2000; k++) {
    char line[24];
    int n = snprintf(line, sizeof line, "%ld", random());
    block_case(line, (size_t)n);
  }
  block_end();
}

static void test_drand48(void)
{
  /* One call per statement: the order of evaluation of a call's arguments is unspecified. */
  srand48(1234567);
  double d1 = drand48(), d2 = drand48();
  long l1 = lrand48(), l2 = lrand48(), m1 = mrand48(), m2 = mrand48();
  printf("drand48: %.17g %.17g; lrand48 %ld %ld; mrand48 %ld %ld\n", d1, d2, l1, l2, m1, m2);
  unsigned short x[3] = { 1, 2, 3 };
  double e = erand48(x);
  long n = nrand48(x), j = jrand48(x);
  printf("erand48 %.17g nrand48 %ld jrand48 %ld; xsubi %u %u %u\n", e, n, j, x[0], x[1], x[2]);
  unsigned short s[3] = { 0x330e, 0x5678, 0x1234 };
  unsigned short *old = seed48(s);
  l1 = lrand48();
  printf("seed48: old %04x %04x %04x; next %ld\n", old[0], old[1], old[2], l1);
  unsigned short p[7] = { 1, 0, 0, 5, 0, 0, 3 };
  lcong48(p);
  m1 = mrand48();
  m2 = mrand48();
  printf("lcong48 (x 1, a 5, c 3): %ld %ld %ld\n", m1, m2, mrand48());
}

static void test_libgen(void)
{
  static const char *const paths[] = { "/usr/lib", "/usr/lib/", "usr", "/", "///", "//", "//a", "///a//", "a/b",
                                       "a//b//", "", ".", "..", "/a", "a/", "//a//b//", "a/b/c/d.txt" };
  for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
    char a[64], b[64];
    strcpy(a, paths[i]);
    strcpy(b, paths[i]);
    printf("[%s]: basename [%s] dirname [%s]\n", paths[i], basename(a), dirname(b));
  }
  printf("NULL: basename [%s] dirname [%s]\n", basename(NULL), dirname(NULL));
}

/* realpath in a scratch tree: the results are shown relative to the current directory. */
static void test_realpath(void)
{
  char cwd[PATH_MAX], buf[PATH_MAX], *r;
  if (getcwd(cwd, sizeof cwd) == NULL) return;
  size_t n = strlen(cwd);
  mkdir("rp-d", 0755);
  mkdir("rp-d/sub", 0755);
  close(open("rp-d/sub/f", O_WRONLY | O_CREAT, 0644));
  symlink("sub", "rp-d/ln");
  symlink("../rp-d/ln/f", "rp-d/sub/up");
  symlink("rp-loop", "rp-loop");
  static const char *const cases[] = { "rp-d", "./rp-d/../rp-d/sub/", "rp-d/ln/f", "rp-d/sub/up", "rp-d//sub/./f",
                                       "rp-d/missing", "rp-d/sub/f/x", "rp-loop", "." };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    errno = 0;
    r = realpath(cases[i], buf);
    if (r == NULL) printf("realpath(%s) = NULL, %s\n", cases[i], strerror(errno));
    else if (strncmp(r, cwd, n) == 0) printf("realpath(%s) = CWD%s\n", cases[i], r + n);
    else printf("realpath(%s) = %s (not under CWD)\n", cases[i], r);
  }
  r = realpath("rp-d/ln", NULL);
  check(r != NULL && strcmp(r + n, "/rp-d/sub") == 0, "realpath with a NULL buffer mallocs");
  free(r);
  r = realpath("/", buf);
  check(r != NULL && strcmp(r, "/") == 0, "realpath(/)");
  unlink("rp-loop");
  unlink("rp-d/sub/up");
  unlink("rp-d/ln");
  unlink("rp-d/sub/f");
  rmdir("rp-d/sub");
  rmdir("rp-d");
}

static void test_tmp(void)
{
  char t[32], d[32];
  struct stat sb;
  strcpy(t, "mkst-XXXXXX");
  int fd = mkstemp(t);
  check(fd >= 0 && strncmp(t, "mkst-", 5) == 0 && strcmp(t + 5, "XXXXXX") != 0 && strlen(t) == 11,
        "mkstemp fills in the X's");
  check(fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && (sb.st_mode & 0777) == 0600 && sb.st_size == 0,
        "mkstemp creates an empty file of mode 0600");
  char t2[32];
  strcpy(t2, "mkst-XXXXXX");
  int fd2 = mkstemp(t2);
  check(fd2 >= 0 && strcmp(t, t2) != 0, "mkstemp twice: two files");
  close(fd);
  close(fd2);
  unlink(t);
  unlink(t2);
  strcpy(t, "nox");
  errno = 0;
  check(mkstemp(t) < 0 && errno == EINVAL, "mkstemp without XXXXXX: EINVAL");
  strcpy(d, "mkdt-XXXXXX");
  check(mkdtemp(d) == d && stat(d, &sb) == 0 && S_ISDIR(sb.st_mode) && (sb.st_mode & 0777) == 0700,
        "mkdtemp creates a directory of mode 0700");
  rmdir(d);
  char name[L_tmpnam];
  char *p = tmpnam(name);
  check(p == name && strncmp(name, "/tmp/", 5) == 0 && strlen(name) > 5 && lstat(name, &sb) < 0,
        "tmpnam names a file in /tmp that does not exist");
  p = tmpnam(NULL);
  check(p != NULL && strncmp(p, "/tmp/", 5) == 0 && strcmp(p, name) != 0, "tmpnam(NULL): another name");
  FILE *f = tmpfile();
  char back[8] = { 0 };
  check(f != NULL && fputs("abc", f) >= 0 && fseek(f, 0, SEEK_SET) == 0 && fread(back, 1, 3, f) == 3 &&
        strcmp(back, "abc") == 0, "tmpfile: a scratch stream");
  if (f) fclose(f);
}

static void test_signals(void)
{
  static const struct { const char *name; int sig; } sigs[] = {
    { "SIGHUP", SIGHUP }, { "SIGINT", SIGINT }, { "SIGQUIT", SIGQUIT }, { "SIGILL", SIGILL }, { "SIGTRAP", SIGTRAP },
    { "SIGABRT", SIGABRT }, { "SIGFPE", SIGFPE }, { "SIGKILL", SIGKILL }, { "SIGBUS", SIGBUS }, { "SIGSEGV", SIGSEGV },
    { "SIGSYS", SIGSYS }, { "SIGPIPE", SIGPIPE }, { "SIGALRM", SIGALRM }, { "SIGTERM", SIGTERM }, { "SIGURG", SIGURG },
    { "SIGSTOP", SIGSTOP }, { "SIGTSTP", SIGTSTP }, { "SIGCONT", SIGCONT }, { "SIGCHLD", SIGCHLD },
    { "SIGTTIN", SIGTTIN }, { "SIGTTOU", SIGTTOU }, { "SIGIO", SIGIO }, { "SIGXCPU", SIGXCPU }, { "SIGXFSZ", SIGXFSZ },
    { "SIGVTALRM", SIGVTALRM }, { "SIGPROF", SIGPROF }, { "SIGWINCH", SIGWINCH }, { "SIGUSR1", SIGUSR1 },
    { "SIGUSR2", SIGUSR2 },
  };
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) printf("strsignal(%s) = %s\n", sigs[i].name, strsignal(sigs[i].sig));
  printf("strsignal(-3) = %s\n", strsignal(-3));
}

/* popen, pclose and system with shell commands and cat, which every system here has. */
static void test_popen(void)
{
  char line[64] = { 0 };
  FILE *f = popen("echo from a child; echo second line", "r");
  check(f != NULL, "popen(\"r\")");
  if (f) {
    while (fgets(line, sizeof line, f)) printf("popen read: %s", line);
    int st = pclose(f);
    printf("pclose: exited %d status %d\n", WIFEXITED(st), WEXITSTATUS(st));
  }
  f = popen("cat > popen-out; exit 4", "w");
  check(f != NULL, "popen(\"w\")");
  if (f) {
    fputs("left right\n", f);
    int st = pclose(f);
    printf("pclose: exited %d status %d\n", WIFEXITED(st), WEXITSTATUS(st));
    FILE *r = fopen("popen-out", "r");
    if (r && fgets(line, sizeof line, r)) printf("the command wrote: %s", line);
    if (r) fclose(r);
    unlink("popen-out");
  }
  errno = 0;
  check(popen("true", "x") == NULL && errno == EINVAL, "popen with a bad mode: EINVAL");
  int st = system("exit 3");
  printf("system(\"exit 3\"): exited %d status %d\n", WIFEXITED(st), WEXITSTATUS(st));
  printf("system(NULL): %d\n", system(NULL) != 0);
}

static void test_accounts(void)
{
  struct passwd *pw = getpwnam("root");
  printf("getpwnam(root): %s uid %u gid %u\n", pw ? pw->pw_name : "NULL", pw ? (unsigned)pw->pw_uid : 0,
         pw ? (unsigned)pw->pw_gid : 0);
  pw = getpwuid(0);
  printf("getpwuid(0): %s\n", pw ? pw->pw_name : "NULL");
  check(pw != NULL && pw->pw_dir != NULL && pw->pw_shell != NULL && pw->pw_dir[0] == '/', "root has a home and a shell");
  printf("getpwnam(no-such-user): %s\n", getpwnam("no-such-user") ? "found" : "NULL");
  struct group *gr = getgrgid(0);
  check(gr != NULL && gr->gr_gid == 0 && gr->gr_mem != NULL, "getgrgid(0)");
  if (gr) {
    struct group *g2 = getgrnam(gr->gr_name);
    check(g2 != NULL && g2->gr_gid == 0, "getgrnam of group 0's name");
  }
  int n = 0, root = 0;
  setpwent();
  while ((pw = getpwent()) != NULL) {
    n++;
    if (pw->pw_uid == 0) root = 1;
  }
  endpwent();
  check(n >= 1 && root, "getpwent lists the accounts, root among them");
}

void test_posix(void)
{
  test_random();
  test_drand48();
  test_libgen();
  test_realpath();
  test_tmp();
  test_signals();
  test_popen();
  test_accounts();
  printf("sysconf: pagesize %ld clk_tck %ld; getpagesize %d\n", sysconf(_SC_PAGESIZE), sysconf(_SC_CLK_TCK),
         getpagesize());
  struct tms t1, t2;
  clock_t c1 = times(&t1), c2 = times(&t2);
  check(c1 != (clock_t)-1 && c2 - c1 < 100 && t2.tms_utime >= t1.tms_utime && t2.tms_stime >= t1.tms_stime,
        "times: elapsed and CPU ticks do not go backwards");
}
