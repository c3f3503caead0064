/* select (POSIX <sys/select.h>; fd_set and its macros are in <sys/types.h>, as in 4.4BSD). */
#ifndef _SYS_SELECT_H_
#define _SYS_SELECT_H_

#include <sys/cdefs.h>
#include <sys/types.h>
#include <sys/time.h>

__BEGIN_DECLS
int	select(int, fd_set *, fd_set *, fd_set *, struct timeval *);
__END_DECLS

#endif /* !_SYS_SELECT_H_ */
