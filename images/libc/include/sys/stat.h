/*
 * File status (4.4BSD <sys/stat.h>): 64-bit st_size and st_blocks, timespec times. The layout
 * is the kernel's (docs/abi.md "struct stat"); the Linux flavour converts from Linux's stat64.
 */
#ifndef _SYS_STAT_H_
#define _SYS_STAT_H_

#include <sys/cdefs.h>
#include <sys/types.h>
#include <sys/time.h>

struct stat {
	dev_t	  st_dev;		/*  0: inode's device */
	ino_t	  st_ino;		/*  4: inode's number */
	mode_t	  st_mode;		/*  8: inode protection mode */
	nlink_t	  st_nlink;		/* 10: number of hard links */
	uid_t	  st_uid;		/* 12: user ID of the file's owner */
	gid_t	  st_gid;		/* 16: group ID of the file's group */
	dev_t	  st_rdev;		/* 20: device type */
	struct	timespec st_atimespec;	/* 24: time of last access */
	struct	timespec st_mtimespec;	/* 32: time of last data modification */
	struct	timespec st_ctimespec;	/* 40: time of last file status change */
	off_t	  st_size;		/* 48: file size, in bytes */
	int64_t	  st_blocks;		/* 56: blocks allocated for file */
	uint32_t  st_blksize;		/* 64: optimal blocksize for I/O */
	uint32_t  st_flags;		/* 68: user defined flags for file */
	uint32_t  st_gen;		/* 72: file generation number */
	int32_t	  st_lspare;		/* 76 */
	int64_t	  st_qspare[2];		/* 80 */
};					/* 96 bytes */

#define st_atime	st_atimespec.tv_sec
#define st_mtime	st_mtimespec.tv_sec
#define st_ctime	st_ctimespec.tv_sec
/* POSIX.1-2008 names */
#define st_atim		st_atimespec
#define st_mtim		st_mtimespec
#define st_ctim		st_ctimespec

#define S_ISUID	0004000			/* set user id on execution */
#define S_ISGID	0002000			/* set group id on execution */
#define S_ISVTX	0001000			/* save swapped text even after use */

#define S_IRWXU	0000700			/* RWX mask for owner */
#define S_IRUSR	0000400			/* R for owner */
#define S_IWUSR	0000200			/* W for owner */
#define S_IXUSR	0000100			/* X for owner */
#define S_IRWXG	0000070			/* RWX mask for group */
#define S_IRGRP	0000040			/* R for group */
#define S_IWGRP	0000020			/* W for group */
#define S_IXGRP	0000010			/* X for group */
#define S_IRWXO	0000007			/* RWX mask for other */
#define S_IROTH	0000004			/* R for other */
#define S_IWOTH	0000002			/* W for other */
#define S_IXOTH	0000001			/* X for other */

#define S_IFMT	 0170000		/* type of file */
#define S_IFIFO	 0010000		/* named pipe (fifo) */
#define S_IFCHR	 0020000		/* character special */
#define S_IFDIR	 0040000		/* directory */
#define S_IFBLK	 0060000		/* block special */
#define S_IFREG	 0100000		/* regular */
#define S_IFLNK	 0120000		/* symbolic link */
#define S_IFSOCK 0140000		/* socket */

#define S_ISDIR(m)	(((m) & 0170000) == 0040000)
#define S_ISCHR(m)	(((m) & 0170000) == 0020000)
#define S_ISBLK(m)	(((m) & 0170000) == 0060000)
#define S_ISREG(m)	(((m) & 0170000) == 0100000)
#define S_ISFIFO(m)	(((m) & 0170000) == 0010000)
#define S_ISLNK(m)	(((m) & 0170000) == 0120000)
#define S_ISSOCK(m)	(((m) & 0170000) == 0140000)

__BEGIN_DECLS
int	chmod(const char *, mode_t);
int	fchmod(int, mode_t);
int	fstat(int, struct stat *);
int	lstat(const char *, struct stat *);
int	mkdir(const char *, mode_t);
int	stat(const char *, struct stat *);
mode_t	umask(mode_t);
__END_DECLS

#endif /* !_SYS_STAT_H_ */
