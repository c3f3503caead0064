/* ioctl(2) and the request codes of the guest system (4.4BSD <sys/ioctl.h>). */
#ifndef _SYS_IOCTL_H_
#define _SYS_IOCTL_H_

#include <sys/cdefs.h>
#include <sys/ioccom.h>
#include <sys/filio.h>
#include <sys/ttycom.h>

__BEGIN_DECLS
int	ioctl(int, unsigned long, ...);
__END_DECLS

#endif /* !_SYS_IOCTL_H_ */
