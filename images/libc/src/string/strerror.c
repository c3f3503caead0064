/*
 * strerror, strerror_r and the message table perror uses.
 *
 * The table is indexed by the <errno.h> names, so it follows whatever numbering the syscall
 * layer's errno.h uses. Messages for errors Linux also has are worded as glibc words them (so a
 * program's output is the same under emu and on a Linux host); the 4.4BSD-only ones keep 4.4BSD's
 * wording.
 */
#include <errno.h>
#include <string.h>

static const char *const errmsg[] = {
  [0] = "Success",
#ifdef EPERM
  [EPERM] = "Operation not permitted",
#endif
#ifdef ENOENT
  [ENOENT] = "No such file or directory",
#endif
#ifdef ESRCH
  [ESRCH] = "No such process",
#endif
#ifdef EINTR
  [EINTR] = "Interrupted system call",
#endif
#ifdef EIO
  [EIO] = "Input/output error",
#endif
#ifdef ENXIO
  [ENXIO] = "No such device or address",
#endif
#ifdef E2BIG
  [E2BIG] = "Argument list too long",
#endif
#ifdef ENOEXEC
  [ENOEXEC] = "Exec format error",
#endif
#ifdef EBADF
  [EBADF] = "Bad file descriptor",
#endif
#ifdef ECHILD
  [ECHILD] = "No child processes",
#endif
#ifdef EDEADLK
  [EDEADLK] = "Resource deadlock avoided",
#endif
#ifdef ENOMEM
  [ENOMEM] = "Cannot allocate memory",
#endif
#ifdef EACCES
  [EACCES] = "Permission denied",
#endif
#ifdef EFAULT
  [EFAULT] = "Bad address",
#endif
#ifdef ENOTBLK
  [ENOTBLK] = "Block device required",
#endif
#ifdef EBUSY
  [EBUSY] = "Device or resource busy",
#endif
#ifdef EEXIST
  [EEXIST] = "File exists",
#endif
#ifdef EXDEV
  [EXDEV] = "Invalid cross-device link",
#endif
#ifdef ENODEV
  [ENODEV] = "No such device",
#endif
#ifdef ENOTDIR
  [ENOTDIR] = "Not a directory",
#endif
#ifdef EISDIR
  [EISDIR] = "Is a directory",
#endif
#ifdef EINVAL
  [EINVAL] = "Invalid argument",
#endif
#ifdef ENFILE
  [ENFILE] = "Too many open files in system",
#endif
#ifdef EMFILE
  [EMFILE] = "Too many open files",
#endif
#ifdef ENOTTY
  [ENOTTY] = "Inappropriate ioctl for device",
#endif
#ifdef ETXTBSY
  [ETXTBSY] = "Text file busy",
#endif
#ifdef EFBIG
  [EFBIG] = "File too large",
#endif
#ifdef ENOSPC
  [ENOSPC] = "No space left on device",
#endif
#ifdef ESPIPE
  [ESPIPE] = "Illegal seek",
#endif
#ifdef EROFS
  [EROFS] = "Read-only file system",
#endif
#ifdef EMLINK
  [EMLINK] = "Too many links",
#endif
#ifdef EPIPE
  [EPIPE] = "Broken pipe",
#endif
#ifdef EDOM
  [EDOM] = "Numerical argument out of domain",
#endif
#ifdef ERANGE
  [ERANGE] = "Numerical result out of range",
#endif
#ifdef EAGAIN
  [EAGAIN] = "Resource temporarily unavailable",
#endif
#ifdef EINPROGRESS
  [EINPROGRESS] = "Operation now in progress",
#endif
#ifdef EALREADY
  [EALREADY] = "Operation already in progress",
#endif
#ifdef ENOTSOCK
  [ENOTSOCK] = "Socket operation on non-socket",
#endif
#ifdef EDESTADDRREQ
  [EDESTADDRREQ] = "Destination address required",
#endif
#ifdef EMSGSIZE
  [EMSGSIZE] = "Message too long",
#endif
#ifdef EPROTOTYPE
  [EPROTOTYPE] = "Protocol wrong type for socket",
#endif
#ifdef ENOPROTOOPT
  [ENOPROTOOPT] = "Protocol not available",
#endif
#ifdef EPROTONOSUPPORT
  [EPROTONOSUPPORT] = "Protocol not supported",
#endif
#ifdef ESOCKTNOSUPPORT
  [ESOCKTNOSUPPORT] = "Socket type not supported",
#endif
#ifdef EOPNOTSUPP
  [EOPNOTSUPP] = "Operation not supported",
#endif
#ifdef EPFNOSUPPORT
  [EPFNOSUPPORT] = "Protocol family not supported",
#endif
#ifdef EAFNOSUPPORT
  [EAFNOSUPPORT] = "Address family not supported by protocol",
#endif
#ifdef EADDRINUSE
  [EADDRINUSE] = "Address already in use",
#endif
#ifdef EADDRNOTAVAIL
  [EADDRNOTAVAIL] = "Cannot assign requested address",
#endif
#ifdef ENETDOWN
  [ENETDOWN] = "Network is down",
#endif
#ifdef ENETUNREACH
  [ENETUNREACH] = "Network is unreachable",
#endif
#ifdef ENETRESET
  [ENETRESET] = "Network dropped connection on reset",
#endif
#ifdef ECONNABORTED
  [ECONNABORTED] = "Software caused connection abort",
#endif
#ifdef ECONNRESET
  [ECONNRESET] = "Connection reset by peer",
#endif
#ifdef ENOBUFS
  [ENOBUFS] = "No buffer space available",
#endif
#ifdef EISCONN
  [EISCONN] = "Transport endpoint is already connected",
#endif
#ifdef ENOTCONN
  [ENOTCONN] = "Transport endpoint is not connected",
#endif
#ifdef ESHUTDOWN
  [ESHUTDOWN] = "Cannot send after transport endpoint shutdown",
#endif
#ifdef ETOOMANYREFS
  [ETOOMANYREFS] = "Too many references: cannot splice",
#endif
#ifdef ETIMEDOUT
  [ETIMEDOUT] = "Connection timed out",
#endif
#ifdef ECONNREFUSED
  [ECONNREFUSED] = "Connection refused",
#endif
#ifdef ELOOP
  [ELOOP] = "Too many levels of symbolic links",
#endif
#ifdef ENAMETOOLONG
  [ENAMETOOLONG] = "File name too long",
#endif
#ifdef EHOSTDOWN
  [EHOSTDOWN] = "Host is down",
#endif
#ifdef EHOSTUNREACH
  [EHOSTUNREACH] = "No route to host",
#endif
#ifdef ENOTEMPTY
  [ENOTEMPTY] = "Directory not empty",
#endif
#ifdef EUSERS
  [EUSERS] = "Too many users",
#endif
#ifdef EDQUOT
  [EDQUOT] = "Disk quota exceeded",
#endif
#ifdef ESTALE
  [ESTALE] = "Stale file handle",
#endif
#ifdef EREMOTE
  [EREMOTE] = "Object is remote",
#endif
#ifdef ENOLCK
  [ENOLCK] = "No locks available",
#endif
#ifdef ENOSYS
  [ENOSYS] = "Function not implemented",
#endif
#ifdef EIDRM
  [EIDRM] = "Identifier removed",
#endif
#ifdef ENOMSG
  [ENOMSG] = "No message of desired type",
#endif
#ifdef EOVERFLOW
  [EOVERFLOW] = "Value too large for defined data type",
#endif
#ifdef ECANCELED
  [ECANCELED] = "Operation canceled",
#endif
#ifdef EILSEQ
  [EILSEQ] = "Invalid or incomplete multibyte or wide character",
#endif
#ifdef EBADMSG
  [EBADMSG] = "Bad message",
#endif
#ifdef EMULTIHOP
  [EMULTIHOP] = "Multihop attempted",
#endif
#ifdef ENOLINK
  [ENOLINK] = "Link has been severed",
#endif
#ifdef EPROTO
  [EPROTO] = "Protocol error",
#endif
#ifdef ENOTRECOVERABLE
  [ENOTRECOVERABLE] = "State not recoverable",
#endif
#ifdef EOWNERDEAD
  [EOWNERDEAD] = "Owner died",
#endif
#ifdef EPROCLIM
  [EPROCLIM] = "Too many processes",
#endif
#ifdef EBADRPC
  [EBADRPC] = "RPC struct is bad",
#endif
#ifdef ERPCMISMATCH
  [ERPCMISMATCH] = "RPC version wrong",
#endif
#ifdef EPROGUNAVAIL
  [EPROGUNAVAIL] = "RPC prog. not avail",
#endif
#ifdef EPROGMISMATCH
  [EPROGMISMATCH] = "Program version wrong",
#endif
#ifdef EPROCUNAVAIL
  [EPROCUNAVAIL] = "Bad procedure for program",
#endif
#ifdef EFTYPE
  [EFTYPE] = "Inappropriate file type or format",
#endif
#ifdef EAUTH
  [EAUTH] = "Authentication error",
#endif
#ifdef ENEEDAUTH
  [ENEEDAUTH] = "Need authenticator",
#endif
#if defined(ENOTSUP) && ENOTSUP != EOPNOTSUPP
  [ENOTSUP] = "Operation not supported",
#endif
};

#define NERR ((int)(sizeof errmsg / sizeof errmsg[0]))

/* The message for errnum, or NULL when it has none. */
const char *__errmsg(int errnum)
{
  return errnum >= 0 && errnum < NERR ? errmsg[errnum] : NULL;
}

/* Formats "Unknown error N" into buf (at least 32 bytes). */
static char *unknown(int errnum, char *buf)
{
  static const char prefix[] = "Unknown error ";
  char digits[12];
  int n = 0;
  unsigned u = errnum < 0 ? -(unsigned)errnum : (unsigned)errnum;
  do digits[n++] = (char)('0' + u % 10); while ((u /= 10) != 0);
  char *p = stpcpy(buf, prefix);
  if (errnum < 0) *p++ = '-';
  while (n) *p++ = digits[--n];
  *p = '\0';
  return buf;
}

char *strerror(int errnum)
{
  static char buf[32];
  const char *m = __errmsg(errnum);
  return m ? (char *)m : unknown(errnum, buf);
}

/* XSI form: 0, or ERANGE when buf is too small (the message is then truncated), or EINVAL for
 * an unknown errnum (buf then holds "Unknown error N"). */
int strerror_r(int errnum, char *buf, size_t len)
{
  char tmp[32];
  const char *m = __errmsg(errnum);
  int rc = 0;
  if (m == NULL) {
    m = unknown(errnum, tmp);
    rc = EINVAL;
  }
  if (strlcpy(buf, m, len) >= len) rc = ERANGE;
  return rc;
}
