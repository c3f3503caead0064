/* Generic file ioctls (4.4BSD <sys/filio.h>). */
#ifndef _SYS_FILIO_H_
#define _SYS_FILIO_H_

#include <sys/ioccom.h>

#define FIOCLEX		_IO('f', 1)		/* set close on exec on fd */
#define FIONCLEX	_IO('f', 2)		/* remove close on exec */
#define FIONREAD	_IOR('f', 127, int)	/* get # bytes to read */
#define FIONBIO		_IOW('f', 126, int)	/* set/clear non-blocking i/o */

#endif /* !_SYS_FILIO_H_ */
