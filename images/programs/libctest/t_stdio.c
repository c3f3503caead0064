/*
 * stdio on real files: fopen modes, fwrite/fread, fgets/fputs, fseek/ftell/rewind, ungetc,
 * getc/putc, append mode, fscanf/fprintf, freopen, setvbuf, error indicators, remove. Works in
 * the current directory (the test harness runs every program in a fresh temporary one).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libctest.h"

#define F1 "libctest-1.tmp"
#define F2 "libctest-2.tmp"

void test_stdio(void)
{
  FILE *fp = fopen(F1, "w");
  if (!fp) {
    printf("fopen(w) failed: %s\n", strerror(errno));
    check(0, "fopen");
    return;
  }
  for (int i = 0; i < 2000; i++) fprintf(fp, "line %d: %s\n", i, i % 3 ? "fizz" : "buzz");
  fputs("last line without newline", fp);
  long pos = ftell(fp);
  printf("written, ftell %ld, fclose %d\n", pos, fclose(fp));

  fp = fopen(F1, "r");
  char line[128];
  int lines = 0;
  long total = 0;
  while (fgets(line, sizeof line, fp)) {
    lines++;
    total += (long)strlen(line);
  }
  printf("fgets: %d lines, %ld bytes, feof %d ferror %d, last [%s]\n", lines, total, feof(fp) != 0, ferror(fp) != 0, line);
  /* Calls in their own statements: printf's arguments are evaluated in an unspecified order. */
  int c1 = fgetc(fp);
  int c2 = fgetc(fp);
  printf("fgetc at EOF %d, sticky: %d\n", c1, c2);
  clearerr(fp);
  printf("clearerr: feof %d\n", feof(fp) != 0);
  rewind(fp);
  int c = getc(fp);
  int u = ungetc('X', fp);
  int c3 = getc(fp);
  printf("rewind, getc '%c', ungetc %d, getc '%c', ftell %ld\n", c, u, c3, ftell(fp));
  ungetc('Y', fp);
  printf("ftell after ungetc %ld\n", ftell(fp));
  getc(fp);
  fseek(fp, 1000, SEEK_SET);
  long t = ftell(fp);
  printf("fseek 1000: ftell %ld fgets [%s]", t, fgets(line, sizeof line, fp));
  fseek(fp, -10, SEEK_CUR);
  printf("fseek -10 CUR: ftell %ld\n", ftell(fp));
  fseek(fp, -4, SEEK_END);
  char *g = fgets(line, sizeof line, fp);
  printf("fseek -4 END: [%s] ftell %ld\n", g, ftell(fp));
  char blk[5000];
  rewind(fp);
  size_t n = fread(blk, 1, sizeof blk, fp);
  size_t m = fread(blk, 7, 100, fp);
  printf("fread %zu then %zu items, feof %d\n", n, m, feof(fp) != 0);
  fseek(fp, 0, SEEK_SET);
  int a = 0;
  char word[16];
  int r = fscanf(fp, "line %d: %15s", &a, word);
  printf("fscanf %d -> %d %s\n", r, a, word);
  fclose(fp);

  fp = fopen(F2, "w+");
  static unsigned char data[10000];
  for (int i = 0; i < 10000; i++) data[i] = (unsigned char)(i * 31 + i / 256);
  printf("fwrite %zu", fwrite(data, 1, 10000, fp));
  fseek(fp, 5000, SEEK_SET);
  fputs("PATCH", fp);
  fseek(fp, 4998, SEEK_SET);
  unsigned char back[16];
  printf(" fread %zu:", fread(back, 1, 9, fp));
  for (int i = 0; i < 9; i++) printf(" %02x", back[i]);
  rewind(fp);
  static unsigned char all[10000];
  size_t got = fread(all, 1, 10000, fp);
  int diff = 0;
  for (int i = 0; i < 10000; i++) diff += all[i] != (i >= 5000 && i < 5005 ? (unsigned char)"PATCH"[i - 5000] : data[i]);
  printf(" reread %zu, %d differ\n", got, diff);
  check(diff == 0 && got == 10000, "w+ file contents");
  fclose(fp);

  fp = fopen(F2, "a");
  fputs("appended\n", fp);
  fclose(fp);
  fp = fopen(F2, "a+");
  fputs("again\n", fp);
  fseek(fp, -15, SEEK_END);
  printf("a+: [%s]", fgets(line, sizeof line, fp));
  fclose(fp);

  fp = fopen(F2, "r+");
  fseek(fp, 0, SEEK_END);
  printf("r+ size %ld\n", ftell(fp));
  fclose(fp);

  fp = fopen(F1, "r");
  static char vbuf[64];
  printf("setvbuf %d: ", setvbuf(fp, vbuf, _IOFBF, sizeof vbuf));
  for (int i = 0; i < 3; i++) {
    fgets(line, sizeof line, fp);
    fputs(line, stdout);
  }
  fp = freopen(F1, "r", fp);
  printf("freopen: %s", fgets(line, sizeof line, fp));
  printf("fileno %d\n", fileno(fp) > 2);
  fclose(fp);

  errno = 0;
  FILE *none = fopen("no/such/dir/file", "r");
  printf("fopen missing: %s errno %s\n", none ? "opened" : "NULL", strerror(errno));
  errno = 0;
  none = fopen(F1, "q");
  printf("fopen bad mode: %s errno %s\n", none ? "opened" : "NULL", errno == EINVAL ? "EINVAL" : "other");
  fp = fopen(F1, "r");
  int w = fputc('x', fp);
  printf("fputc on read-only stream: %d ferror %d\n", w, ferror(fp) != 0);
  fclose(fp);
  int r1 = remove(F1);
  int r2 = remove(F2);
  printf("remove %d %d, fopen after remove %s\n", r1, r2, fopen(F1, "r") ? "opened" : "NULL");
  errno = ENOENT;
  fflush(stdout);
  perror("perror test");
  fprintf(stderr, "stderr is unbuffered: %d %s\n", 42, "ok");
  putchar('p');
  putc('u', stdout);
  fputc('t', stdout);
  puts("s");
  printf("fflush(NULL) %d\n", fflush(NULL));
}
