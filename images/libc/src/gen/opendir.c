/*
 * Directory streams (4.4BSD lib/libc/gen/opendir.c, readdir.c, closedir.c) over
 * getdirentries(2): each DIR holds one buffer of entries, refilled when used up.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define DIRBLKSIZ	2048

struct _dirdesc {
	int	dd_fd;		/* file descriptor of the open directory */
	int	dd_loc;		/* offset of the next entry in dd_buf */
	int	dd_size;	/* bytes of entries in dd_buf */
	long	dd_seek;	/* base of the block from getdirentries */
	char	dd_buf[DIRBLKSIZ];
};

DIR *
opendir(const char *name)
{
	struct stat sb;
	DIR *dirp;
	int fd;

	if ((fd = open(name, O_RDONLY)) < 0)
		return 0;
	if (fstat(fd, &sb) < 0)
		goto fail;
	if (!S_ISDIR(sb.st_mode)) {
		errno = ENOTDIR;
		goto fail;
	}
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0 || (dirp = malloc(sizeof *dirp)) == 0)
		goto fail;
	dirp->dd_fd = fd;
	dirp->dd_loc = 0;
	dirp->dd_size = 0;
	dirp->dd_seek = 0;
	return dirp;
fail:
	close(fd);
	return 0;
}

/* The next entry, skipping deleted ones (d_fileno 0); NULL at the end or on error. */
struct dirent *
readdir(DIR *dirp)
{
	struct dirent *dp;

	for (;;) {
		if (dirp->dd_loc >= dirp->dd_size) {
			dirp->dd_size = getdirentries(dirp->dd_fd, dirp->dd_buf, DIRBLKSIZ, &dirp->dd_seek);
			dirp->dd_loc = 0;
			if (dirp->dd_size <= 0)
				return 0;
		}
		dp = (struct dirent *)(dirp->dd_buf + dirp->dd_loc);
		if (dp->d_reclen == 0 || dp->d_reclen > dirp->dd_size - dirp->dd_loc) {
			errno = EIO;
			return 0;
		}
		dirp->dd_loc += dp->d_reclen;
		if (dp->d_fileno != 0)
			return dp;
	}
}

void
rewinddir(DIR *dirp)
{
	lseek(dirp->dd_fd, 0, SEEK_SET);
	dirp->dd_loc = 0;
	dirp->dd_size = 0;
}

int
closedir(DIR *dirp)
{
	int fd = dirp->dd_fd;

	free(dirp);
	return close(fd);
}

int
dirfd(DIR *dirp)
{
	return dirp->dd_fd;
}
