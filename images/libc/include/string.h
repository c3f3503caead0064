/* String handling (C11 7.24) plus the POSIX and BSD additions programs here use. */
#ifndef _STRING_H_
#define _STRING_H_

#include <sys/cdefs.h>
#define __need_size_t
#define __need_NULL
#include <stddef.h>
#include <strings.h>

__BEGIN_DECLS
void *memchr(const void *s, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *p, int c, size_t n);
void *memccpy(void *restrict dst, const void *restrict src, int c, size_t n);
void *memrchr(const void *s, int c, size_t n);

size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
char *strcpy(char *restrict dst, const char *restrict src);
char *strncpy(char *restrict dst, const char *restrict src, size_t n);
char *stpcpy(char *restrict dst, const char *restrict src);
char *stpncpy(char *restrict dst, const char *restrict src, size_t n);
size_t strlcpy(char *restrict dst, const char *restrict src, size_t size);
size_t strlcat(char *restrict dst, const char *restrict src, size_t size);
char *strcat(char *restrict dst, const char *restrict src);
char *strncat(char *restrict dst, const char *restrict src, size_t n);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
int strcoll(const char *a, const char *b);
size_t strxfrm(char *restrict dst, const char *restrict src, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *hay, const char *needle);
size_t strspn(const char *s, const char *accept);
size_t strcspn(const char *s, const char *reject);
char *strpbrk(const char *s, const char *accept);
char *strtok(char *restrict s, const char *restrict sep);
char *strtok_r(char *restrict s, const char *restrict sep, char **restrict last);
char *strsep(char **sp, const char *sep);
char *strdup(const char *s);
char *strndup(const char *s, size_t n);
char *strerror(int errnum);
char *strsignal(int sig);
int strerror_r(int errnum, char *buf, size_t len);
__END_DECLS

#endif /* !_STRING_H_ */
