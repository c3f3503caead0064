/* POSIX <unistd.h> of the guest libc: system calls (images/libc/sys/<flavour>/) and the portable
 * wrappers over them (images/libc/src/gen/). */
#ifndef _UNISTD_H_
#define _UNISTD_H_

#include <sys/cdefs.h>
#include <sys/types.h>
#include <stddef.h>

#define STDIN_FILENO	0
#define STDOUT_FILENO	1
#define STDERR_FILENO	2

/* access() modes */
#define F_OK		0	/* test for existence of file */
#define X_OK		0x01	/* test for execute or search permission */
#define W_OK		0x02	/* test for write permission */
#define R_OK		0x04	/* test for read permission */

/* lseek() whence (also in <stdio.h>) */
#ifndef SEEK_SET
#define SEEK_SET	0
#define SEEK_CUR	1
#define SEEK_END	2
#endif

typedef uint32_t useconds_t;

/* sysconf() names */
#define _SC_ARG_MAX		1
#define _SC_CHILD_MAX		2
#define _SC_CLK_TCK		3
#define _SC_NGROUPS_MAX		4
#define _SC_OPEN_MAX		5
#define _SC_JOB_CONTROL		6
#define _SC_SAVED_IDS		7
#define _SC_VERSION		8
#define _SC_PAGESIZE		47
#define _SC_PAGE_SIZE		_SC_PAGESIZE
#define _SC_NPROCESSORS_CONF	57
#define _SC_NPROCESSORS_ONLN	58

/* getopt() */
extern char *optarg;
extern int optind, opterr, optopt, optreset;

__BEGIN_DECLS
extern char **environ;

void	 _exit(int) __dead2;
int	 access(const char *, int);
unsigned int alarm(unsigned int);
int	 brk(void *);
void	*sbrk(intptr_t);
int	 chdir(const char *);
int	 chown(const char *, uid_t, gid_t);
int	 close(int);
int	 dup(int);
int	 dup2(int, int);
int	 execve(const char *, char *const[], char *const[]);
int	 execv(const char *, char *const[]);
int	 execvp(const char *, char *const[]);
int	 execl(const char *, const char *, ...);
int	 execle(const char *, const char *, ...);
int	 execlp(const char *, const char *, ...);
int	 fchdir(int);
int	 fchown(int, uid_t, gid_t);
pid_t	 fork(void);
int	 fsync(int);
int	 ftruncate(int, off_t);
char	*getcwd(char *, size_t);
gid_t	 getegid(void);
uid_t	 geteuid(void);
gid_t	 getgid(void);
int	 getopt(int, char *const[], const char *);
int	 getpagesize(void) __pure2;
pid_t	 getpgrp(void);
pid_t	 getpid(void);
pid_t	 getppid(void);
uid_t	 getuid(void);
int	 isatty(int);
int	 link(const char *, const char *);
off_t	 lseek(int, off_t, int);
int	 pause(void);
int	 pipe(int *);
ssize_t	 pread(int, void *, size_t, off_t);
ssize_t	 pwrite(int, const void *, size_t, off_t);
ssize_t	 read(int, void *, size_t);
ssize_t	 readlink(const char *restrict, char *restrict, size_t);
int	 rmdir(const char *);
int	 setpgid(pid_t, pid_t);
unsigned int sleep(unsigned int);
int	 symlink(const char *, const char *);
long	 syscall(long, ...);
long	 sysconf(int);
int	 truncate(const char *, off_t);
char	*ttyname(int);
int	 unlink(const char *);
int	 usleep(useconds_t);
ssize_t	 write(int, const void *, size_t);
__END_DECLS

#endif /* !_UNISTD_H_ */
