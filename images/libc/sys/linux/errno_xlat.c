/*
 * Linux errno -> 4.4BSD errno, for the Linux flavour's syscall layer. The two Linux tables
 * (MIPS and SPARC, <linux_errno.h> of each ISA) differ from each other and from 4.4BSD past
 * ERANGE (34), and even below it: Linux's 11 is EAGAIN, 4.4BSD's is EDEADLK.
 */
#include <errno.h>
#include <linux_errno.h>
#include <lsys.h>

int
__errno_from_linux(int lerrno)
{
	switch (lerrno) {
	case LINUX_EPERM:	return EPERM;
	case LINUX_ENOENT:	return ENOENT;
	case LINUX_ESRCH:	return ESRCH;
	case LINUX_EINTR:	return EINTR;
	case LINUX_EIO:	return EIO;
	case LINUX_ENXIO:	return ENXIO;
	case LINUX_E2BIG:	return E2BIG;
	case LINUX_ENOEXEC:	return ENOEXEC;
	case LINUX_EBADF:	return EBADF;
	case LINUX_ECHILD:	return ECHILD;
	case LINUX_EAGAIN:	return EAGAIN;
	case LINUX_ENOMEM:	return ENOMEM;
	case LINUX_EACCES:	return EACCES;
	case LINUX_EFAULT:	return EFAULT;
	case LINUX_ENOTBLK:	return ENOTBLK;
	case LINUX_EBUSY:	return EBUSY;
	case LINUX_EEXIST:	return EEXIST;
	case LINUX_EXDEV:	return EXDEV;
	case LINUX_ENODEV:	return ENODEV;
	case LINUX_ENOTDIR:	return ENOTDIR;
	case LINUX_EISDIR:	return EISDIR;
	case LINUX_EINVAL:	return EINVAL;
	case LINUX_ENFILE:	return ENFILE;
	case LINUX_EMFILE:	return EMFILE;
	case LINUX_ENOTTY:	return ENOTTY;
	case LINUX_ETXTBSY:	return ETXTBSY;
	case LINUX_EFBIG:	return EFBIG;
	case LINUX_ENOSPC:	return ENOSPC;
	case LINUX_ESPIPE:	return ESPIPE;
	case LINUX_EROFS:	return EROFS;
	case LINUX_EMLINK:	return EMLINK;
	case LINUX_EPIPE:	return EPIPE;
	case LINUX_EDOM:	return EDOM;
	case LINUX_ERANGE:	return ERANGE;
	case LINUX_EDEADLK:	return EDEADLK;
	case LINUX_ENOLCK:	return ENOLCK;
	case LINUX_ENOSYS:	return ENOSYS;
	case LINUX_ENAMETOOLONG:	return ENAMETOOLONG;
	case LINUX_ELOOP:	return ELOOP;
	case LINUX_ENOTEMPTY:	return ENOTEMPTY;
	case LINUX_EUSERS:	return EUSERS;
	case LINUX_EDQUOT:	return EDQUOT;
	case LINUX_ESTALE:	return ESTALE;
	case LINUX_EREMOTE:	return EREMOTE;
	case LINUX_EINPROGRESS:	return EINPROGRESS;
	case LINUX_EALREADY:	return EALREADY;
	case LINUX_ENOTSOCK:	return ENOTSOCK;
	case LINUX_EDESTADDRREQ:	return EDESTADDRREQ;
	case LINUX_EMSGSIZE:	return EMSGSIZE;
	case LINUX_EPROTOTYPE:	return EPROTOTYPE;
	case LINUX_ENOPROTOOPT:	return ENOPROTOOPT;
	case LINUX_EPROTONOSUPPORT:	return EPROTONOSUPPORT;
	case LINUX_ESOCKTNOSUPPORT:	return ESOCKTNOSUPPORT;
	case LINUX_EOPNOTSUPP:	return EOPNOTSUPP;
	case LINUX_EPFNOSUPPORT:	return EPFNOSUPPORT;
	case LINUX_EAFNOSUPPORT:	return EAFNOSUPPORT;
	case LINUX_EADDRINUSE:	return EADDRINUSE;
	case LINUX_EADDRNOTAVAIL:	return EADDRNOTAVAIL;
	case LINUX_ENETDOWN:	return ENETDOWN;
	case LINUX_ENETUNREACH:	return ENETUNREACH;
	case LINUX_ENETRESET:	return ENETRESET;
	case LINUX_ECONNABORTED:	return ECONNABORTED;
	case LINUX_ECONNRESET:	return ECONNRESET;
	case LINUX_ENOBUFS:	return ENOBUFS;
	case LINUX_EISCONN:	return EISCONN;
	case LINUX_ENOTCONN:	return ENOTCONN;
	case LINUX_ESHUTDOWN:	return ESHUTDOWN;
	case LINUX_ETOOMANYREFS:	return ETOOMANYREFS;
	case LINUX_ETIMEDOUT:	return ETIMEDOUT;
	case LINUX_ECONNREFUSED:	return ECONNREFUSED;
	case LINUX_EHOSTDOWN:	return EHOSTDOWN;
	case LINUX_EHOSTUNREACH:	return EHOSTUNREACH;
	case LINUX_EIDRM:	return EIDRM;
	case LINUX_ENOMSG:	return ENOMSG;
	case LINUX_EOVERFLOW:	return EOVERFLOW;
	case LINUX_ECANCELED:	return ECANCELED;
	case LINUX_EILSEQ:	return EILSEQ;
#ifdef LINUX_EPROCLIM
	case LINUX_EPROCLIM:	return EPROCLIM;
#endif
	/* Linux-only conditions (ENOTSUP variants, STREAMS, keys...) have no 4.4BSD name. */
	default:		return EIO;
	}
}

/* For the assembly stubs: errno from a positive Linux errno, and the failure result -1. */
long __lsys_cerror(int lerrno);

long
__lsys_cerror(int lerrno)
{
	errno = __errno_from_linux(lerrno);
	return -1;
}
