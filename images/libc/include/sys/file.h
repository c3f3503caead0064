/* flock (4.4BSD <sys/file.h>): whole-file advisory locks owned by the open file. */
#ifndef _SYS_FILE_H_
#define _SYS_FILE_H_

#include <sys/cdefs.h>
#include <fcntl.h>

#define LOCK_SH		0x01	/* shared lock */
#define LOCK_EX		0x02	/* exclusive lock */
#define LOCK_NB		0x04	/* fail with EWOULDBLOCK instead of waiting */
#define LOCK_UN		0x08	/* unlock */

__BEGIN_DECLS
int	flock(int, int);
__END_DECLS

#endif /* !_SYS_FILE_H_ */
