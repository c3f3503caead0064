/* BSD string operations (POSIX <strings.h>). */
#ifndef _STRINGS_H_
#define _STRINGS_H_

#include <sys/cdefs.h>
#define __need_size_t
#include <stddef.h>

__BEGIN_DECLS
int bcmp(const void *a, const void *b, size_t n);
void bcopy(const void *src, void *dst, size_t n);
void bzero(void *p, size_t n);
int ffs(int i);
char *index(const char *s, int c);
char *rindex(const char *s, int c);
int strcasecmp(const char *a, const char *b);
int strncasecmp(const char *a, const char *b, size_t n);
__END_DECLS

#endif /* !_STRINGS_H_ */
