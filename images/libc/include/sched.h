/* Scheduling (POSIX <sched.h>): the one call the guest system has. */
#ifndef _SCHED_H_
#define _SCHED_H_

#include <sys/cdefs.h>

__BEGIN_DECLS
int	sched_yield(void);
__END_DECLS

#endif /* !_SCHED_H_ */
