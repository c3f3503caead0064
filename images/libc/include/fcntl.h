/*
 * File control options (4.4BSD <fcntl.h> values). The Linux flavour translates the O_* flags to
 * Linux's (which differ on MIPS) in its syscall layer.
 */
#ifndef _FCNTL_H_
#define _FCNTL_H_

#include <sys/cdefs.h>
#include <sys/types.h>

/* open() flags */
#define O_RDONLY	0x0000		/* open for reading only */
#define O_WRONLY	0x0001		/* open for writing only */
#define O_RDWR		0x0002		/* open for reading and writing */
#define O_ACCMODE	0x0003		/* mask for above modes */
#define O_NONBLOCK	0x0004		/* no delay */
#define O_NDELAY	O_NONBLOCK
#define O_APPEND	0x0008		/* set append mode */
#define O_CREAT		0x0200		/* create if nonexistent */
#define O_TRUNC		0x0400		/* truncate to zero length */
#define O_EXCL		0x0800		/* error if already exists */
#define O_NOCTTY	0x8000		/* don't assign controlling terminal (FreeBSD value) */

/* fcntl() commands */
#define F_DUPFD		0		/* duplicate file descriptor */
#define F_GETFD		1		/* get file descriptor flags */
#define F_SETFD		2		/* set file descriptor flags */
#define F_GETFL		3		/* get file status flags */
#define F_SETFL		4		/* set file status flags */

#define F_GETLK		7		/* get the first lock that blocks this one */
#define F_SETLK		8		/* set or clear a record lock (EAGAIN if blocked) */
#define F_SETLKW	9		/* set a record lock, waiting while it is blocked */

/* file descriptor flags (F_GETFD, F_SETFD) */
#define FD_CLOEXEC	1		/* close-on-exec flag */

/* record lock types (struct flock l_type) */
#define F_RDLCK		1		/* shared or read lock */
#define F_UNLCK		2		/* unlock */
#define F_WRLCK		3		/* exclusive or write lock */

/*
 * A record lock (4.4BSD): l_len 0 reaches to the end of the file however it grows; a negative
 * l_len covers the bytes before l_start. l_pid is the holder F_GETLK reports (-1: a flock lock).
 */
struct flock {
	off_t	l_start;	/* starting offset */
	off_t	l_len;		/* len = 0 means until end of file */
	pid_t	l_pid;		/* lock owner */
	short	l_type;		/* lock type: read/write, etc. */
	short	l_whence;	/* type of l_start */
};

__BEGIN_DECLS
int	open(const char *, int, ...);
int	creat(const char *, mode_t);
int	fcntl(int, int, ...);
__END_DECLS

#endif /* !_FCNTL_H_ */
