/* string.h, strings.h and ctype.h. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "libctest.h"

static int sign(int v)
{
  return v < 0 ? -1 : v > 0;
}

/* memcpy/memmove/memset against byte-by-byte references, over every alignment and many sizes
 * (the word-at-a-time paths merge misaligned words: both byte orders must come out right). */
static void copies(void)
{
  static unsigned char src[160], dst[160], ref[160];
  int bad = 0, cases = 0;
  for (int i = 0; i < 160; i++) src[i] = (unsigned char)(i * 7 + 3);
  /* Offsets 0..3 cover every alignment relation of source and destination words. */
  for (int so = 0; so < 4; so++)
    for (int dof = 0; dof < 4; dof++)
      for (int n = 0; n < 100; n += (n < 20 ? 1 : 7)) {
        int span = dof + n + 24;   /* the bytes written, and a margin that must stay untouched */
        memset(dst, 0xee, (size_t)span);
        memset(ref, 0xee, (size_t)span);
        for (int i = 0; i < n; i++) ref[dof + i] = src[so + i];
        memcpy(dst + dof, src + so, (size_t)n);
        bad += memcmp(dst, ref, (size_t)span) != 0;
        /* overlapping moves, both directions */
        unsigned char tmp[100];
        memcpy(dst, src, sizeof dst);
        memcpy(ref, src, sizeof ref);
        for (int i = 0; i < n; i++) tmp[i] = ref[so + 20 + i];
        for (int i = 0; i < n; i++) ref[dof + 20 + i] = tmp[i];
        memmove(dst + dof + 20, dst + so + 20, (size_t)n);
        bad += memcmp(dst, ref, sizeof dst) != 0;
        memset(dst, 0, (size_t)span);
        memset(dst + dof, so * 31 + 1, (size_t)n);
        for (int i = 0; i < span; i++) bad += dst[i] != (i >= dof && i < dof + n ? (unsigned char)(so * 31 + 1) : 0);
        cases += 3;
      }
  printf("memcpy/memmove/memset: %d cases, %d wrong\n", cases, bad);
  check(bad == 0, "memcpy/memmove/memset");
  char s[64];
  int lenbad = 0;
  for (int off = 0; off < 8; off++)
    for (int len = 0; len < 40; len++) {
      memset(s, 'a', sizeof s);
      s[off + len] = '\0';
      lenbad += strlen(s + off) != (size_t)len;
    }
  printf("strlen over alignments: %d wrong\n", lenbad);
  check(lenbad == 0, "strlen");
}

static void strings(void)
{
  char buf[128];
  const char *hay = "the quick brown fox jumps over the lazy dog";
  printf("strlen %zu strnlen %zu %zu\n", strlen(hay), strnlen(hay, 5), strnlen("ab", 5));
  printf("strcmp %d %d %d %d\n", sign(strcmp("abc", "abd")), sign(strcmp("abc", "abc")), sign(strcmp("b", "abc")), sign(strcmp("a\xff", "a\x01")));
  printf("strncmp %d %d %d\n", sign(strncmp("abcdef", "abcxyz", 3)), sign(strncmp("abcdef", "abcxyz", 4)), sign(strncmp("", "", 5)));
  printf("strcasecmp %d %d %d strncasecmp %d\n", sign(strcasecmp("HeLLo", "hello")), sign(strcasecmp("a", "B")),
         sign(strcasecmp("Z", "a")), sign(strncasecmp("ABCx", "abcy", 3)));
  printf("memcmp %d %d bcmp %d\n", sign(memcmp("\x01\x80", "\x01\x7f", 2)), sign(memcmp("ab", "ab", 2)), bcmp("ab", "ac", 2) != 0);
  printf("strchr %s strrchr %s strchr-nul %d index %s rindex %s\n", strchr(hay, 'q'), strrchr(hay, 'o'),
         (int)(strchr(hay, '\0') - hay), index(hay, 'z'), rindex(hay, 't'));
  printf("strchr-miss %p memchr %s memrchr %s\n", (void *)strchr(hay, 'Q'), (char *)memchr(hay, 'j', 43), (char *)memrchr(hay, 'e', 43));
  printf("strstr %s|%s|%p|%s\n", strstr(hay, "fox"), strstr(hay, "the"), (void *)strstr(hay, "cat"), strstr(hay, ""));
  printf("strspn %zu strcspn %zu strpbrk %s\n", strspn(hay, "eht "), strcspn(hay, "xyz"), strpbrk(hay, "kx"));
  strcpy(buf, "abc");
  strcat(buf, "def");
  strncat(buf, "ghijkl", 3);
  printf("strcpy/strcat/strncat %s\n", buf);
  memset(buf, 'X', 20);
  strncpy(buf, "hi", 6);
  printf("strncpy pads: %d %d %d %c\n", buf[2], buf[5], buf[6] == 'X', buf[7]);
  char *e = stpcpy(buf, "stp");
  printf("stpcpy %s %d\n", buf, (int)(e - buf));
#ifndef __GLIBC__
  /* BSD strlcpy/strlcat (glibc has them only from 2.38): self-checked. */
  size_t n1 = strlcpy(buf, "truncated", 5);
  int ok = n1 == 9 && strcmp(buf, "trun") == 0;
  size_t n2 = strlcat(buf, "+more", 8);
  ok = ok && n2 == 9 && strcmp(buf, "trun+mo") == 0;
  check(ok, "strlcpy/strlcat");
#endif
  char *d = strdup(hay);
  char *nd = strndup(hay, 9);
  printf("strdup %s strndup [%s]\n", d, nd);
  free(d);
  free(nd);
  strcpy(buf, "  alpha, beta,,gamma ;delta  ");
  printf("strtok:");
  for (char *t = strtok(buf, " ,;"); t; t = strtok(NULL, " ,;")) printf(" [%s]", t);
  printf("\n");
  strcpy(buf, "a=1;b=2;;c=3");
  char *save, *p;
  printf("strtok_r:");
  for (char *t = strtok_r(buf, ";", &save); t; t = strtok_r(NULL, ";", &save)) printf(" [%s]", t);
  strcpy(buf, "x,,y,");
  p = buf;
  printf("\nstrsep:");
  char *t;
  while ((t = strsep(&p, ",")) != NULL) printf(" [%s]", t);
  printf("\n");
  printf("strerror: %s | %s | %s | %s\n", strerror(ENOENT), strerror(EACCES), strerror(EINVAL), strerror(ERANGE));
  printf("strerror: %s | %s | %s\n", strerror(EDOM), strerror(EEXIST), strerror(0));
  printf("strerror unknown: %s\n", strerror(9999));
  printf("ffs %d %d %d %d %d\n", ffs(0), ffs(1), ffs(0x80), ffs(0x80000000), ffs(12));
  memset(buf, 1, 10);
  bzero(buf + 2, 3);
  bcopy("AB", buf + 6, 2);
  printf("bzero/bcopy:");
  for (int i = 0; i < 10; i++) printf(" %d", buf[i]);
  printf("\n");
  char *after = memccpy(buf, "copy-until-dash", '-', 20);
  printf("memccpy copied %d: %.*s; no stop char: %s\n", (int)(after - buf), (int)(after - buf), buf,
         memccpy(buf, "abc", 'z', 3) ? "found" : "NULL");
  printf("strcoll %d strxfrm %zu\n", sign(strcoll("a", "b")), strxfrm(buf, "xfrm", sizeof buf));
}

void test_string(void)
{
  copies();
  strings();
}

void test_ctype(void)
{
  static const char *const names[] = { "alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper", "xdigit" };
  int (*const fns[])(int) = { isalnum, isalpha, isblank, iscntrl, isdigit, isgraph, islower, isprint, ispunct, isspace, isupper, isxdigit };
  for (int k = 0; k < 12; k++) {
    /* Per class: the set as a bitmap over 0..255 printed in hex, from the function and the macro. */
    printf("%-6s", names[k]);
    for (int c = 0; c < 256; c += 32) {
      uint32_t m = 0;
      for (int i = 0; i < 32; i++) m |= (uint32_t)(fns[k](c + i) != 0) << i;
      printf(" %08x", (unsigned)m);
    }
    printf("\n");
  }
  int macro_bad = 0;
  for (int c = -1; c < 256; c++) {
    macro_bad += (isalpha(c) != 0) != ((fns[1])(c) != 0);
    macro_bad += (isspace(c) != 0) != ((fns[9])(c) != 0);
    macro_bad += (isprint(c) != 0) != ((fns[7])(c) != 0);
  }
  check(macro_bad == 0, "ctype macros agree with functions");
  printf("EOF: %d %d %d; tolower %c%c%c toupper %c%c%c; %d %d\n", isalpha(EOF) != 0, isspace(EOF) != 0, isprint(EOF) != 0,
         tolower('A'), tolower('z'), tolower('['), toupper('a'), toupper('Z'), toupper('{'), tolower(EOF), toupper(200));
}
