/*
 * Unique names for temporary files: mkstemp and mkdtemp (POSIX.1) replace the trailing XXXXXX of
 * a template by letters and digits until the name is new (created with O_EXCL: no race), tmpnam
 * returns a name in /tmp that does not exist yet (C99; racy by design, kept for the programs
 * that call it). The letters come from a 32-bit generator seeded with the pid and the time of day.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

static uint32_t seed;

static uint32_t next(void)
{
  if (seed == 0) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    seed = ((uint32_t)getpid() << 16) ^ (uint32_t)tv.tv_sec ^ ((uint32_t)tv.tv_usec << 8) ^ 0x9e3779b9u;
  }
  /* xorshift32 */
  seed ^= seed << 13;
  seed ^= seed >> 17;
  seed ^= seed << 5;
  return seed;
}

/* Fills the n characters at p with letters and digits. */
static void fill(char *p, int n)
{
  static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  uint32_t r = 0;
  for (int i = 0; i < n; i++) {
    if (i % 5 == 0) r = next();
    p[i] = chars[r % 62];
    r /= 62;
  }
}

/* The position of the trailing XXXXXX of template, or NULL (errno EINVAL). */
static char *xs(char *template)
{
  size_t n = strlen(template);
  if (n < 6 || strcmp(template + n - 6, "XXXXXX") != 0) {
    errno = EINVAL;
    return NULL;
  }
  return template + n - 6;
}

int mkstemp(char *template)
{
  char *x = xs(template);
  if (x == NULL) return -1;
  for (int tries = 0; tries < 10000; tries++) {
    fill(x, 6);
    int fd = open(template, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

char *mkdtemp(char *template)
{
  char *x = xs(template);
  if (x == NULL) return NULL;
  for (int tries = 0; tries < 10000; tries++) {
    fill(x, 6);
    if (mkdir(template, 0700) == 0) return template;
    if (errno != EEXIST) return NULL;
  }
  return NULL;
}

char *tmpnam(char *s)
{
  static char buf[L_tmpnam];
  struct stat sb;
  if (s == NULL) s = buf;
  for (int tries = 0; tries < 10000; tries++) {
    strcpy(s, "/tmp/tmp.XXXXXX");
    fill(s + 9, 6);
    if (lstat(s, &sb) < 0 && errno == ENOENT) return s;
  }
  return NULL;
}
