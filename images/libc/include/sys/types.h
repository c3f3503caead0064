/* Basic system data types, 4.4BSD-flavoured, for the ILP32 guests (MIPS o32 and SPARC v8). */
#ifndef _SYS_TYPES_H_
#define _SYS_TYPES_H_

#include <sys/cdefs.h>
#include <stdint.h>

typedef unsigned char u_char;
typedef unsigned short u_short;
typedef unsigned int u_int;
typedef unsigned long u_long;
typedef int64_t quad_t;
typedef uint64_t u_quad_t;
typedef char *caddr_t;

typedef __SIZE_TYPE__ size_t;
typedef int ssize_t;
typedef int64_t off_t;       /* 4.4BSD: file offsets are 64-bit */
typedef int32_t pid_t;
typedef uint32_t uid_t;
typedef uint32_t gid_t;
typedef uint16_t mode_t;
typedef uint16_t nlink_t;
typedef uint32_t ino_t;
typedef int32_t dev_t;
typedef long time_t;
typedef long suseconds_t;
typedef unsigned long clock_t;
typedef int32_t blksize_t;
typedef int64_t blkcnt_t;
typedef uint32_t fixpt_t;

#ifndef _FD_SET_DECLARED
#define _FD_SET_DECLARED
/* Descriptor sets for select (4.4BSD keeps them here; POSIX in <sys/select.h>): bit fd % 32 of
 * word fd / 32. */
#define FD_SETSIZE	256		/* descriptors an fd_set holds (4.4BSD) */
#define NFDBITS		32		/* bits per fd_mask */
typedef uint32_t fd_mask;
typedef struct fd_set {
	fd_mask	fds_bits[FD_SETSIZE / NFDBITS];
} fd_set;
#define FD_SET(n, p)	((p)->fds_bits[(unsigned)(n) / NFDBITS] |= (fd_mask)1 << ((unsigned)(n) % NFDBITS))
#define FD_CLR(n, p)	((p)->fds_bits[(unsigned)(n) / NFDBITS] &= ~((fd_mask)1 << ((unsigned)(n) % NFDBITS)))
#define FD_ISSET(n, p)	(((p)->fds_bits[(unsigned)(n) / NFDBITS] >> ((unsigned)(n) % NFDBITS)) & 1)
#define FD_ZERO(p)	__builtin_memset((p), 0, sizeof(*(p)))
#endif

#endif /* !_SYS_TYPES_H_ */
