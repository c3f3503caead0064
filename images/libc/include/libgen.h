/* Path name parts (POSIX.1 <libgen.h>). */
#ifndef _LIBGEN_H_
#define _LIBGEN_H_

#include <sys/cdefs.h>

__BEGIN_DECLS
char	*basename(char *);
char	*dirname(char *);
__END_DECLS

#endif /* !_LIBGEN_H_ */
