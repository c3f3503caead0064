/* Scatter/gather I/O (4.4BSD <sys/uio.h>). */
#ifndef _SYS_UIO_H_
#define _SYS_UIO_H_

#include <sys/cdefs.h>
#include <sys/types.h>

struct iovec {
	void	*iov_base;	/* base address */
	size_t	 iov_len;	/* length */
};

#define IOV_MAX		1024	/* iovecs per readv/writev (4.4BSD UIO_MAXIOV) */

__BEGIN_DECLS
ssize_t	readv(int, const struct iovec *, int);
ssize_t	writev(int, const struct iovec *, int);
__END_DECLS

#endif /* !_SYS_UIO_H_ */
