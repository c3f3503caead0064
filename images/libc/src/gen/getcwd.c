/*
 * getcwd (after 4.4BSD lib/libc/gen/getcwd.c): the kernel has no such call, so the path is found
 * by walking up: at each level, the parent directory is searched for the entry whose inode and
 * device are those of the current level, until a directory is its own parent (the root).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

char *
getcwd(char *buf, size_t size)
{
	char up[PATH_MAX];		/* "..", "../..", ...: the directory being searched */
	char path[PATH_MAX];		/* the result, built from its end */
	char dbuf[2048];
	struct stat cur, parent, root;
	size_t uplen = 0, start = sizeof path - 1, i;
	long base;
	int fd, n, found;

	if (buf == 0 || size == 0) {
		errno = EINVAL;
		return 0;
	}
	path[start] = '\0';
	if (stat("/", &root) < 0 || stat(".", &cur) < 0)
		return 0;
	while (cur.st_dev != root.st_dev || cur.st_ino != root.st_ino) {
		if (uplen + 3 >= sizeof up) {
			errno = ENAMETOOLONG;
			return 0;
		}
		if (uplen)
			up[uplen++] = '/';
		up[uplen++] = '.';
		up[uplen++] = '.';
		up[uplen] = '\0';
		if ((fd = open(up, O_RDONLY)) < 0)
			return 0;
		if (fstat(fd, &parent) < 0) {
			close(fd);
			return 0;
		}
		for (found = 0; !found && (n = getdirentries(fd, dbuf, sizeof dbuf, &base)) > 0; ) {
			int off = 0;

			while (off < n && !found) {
				struct dirent *dp = (struct dirent *)(dbuf + off);

				off += dp->d_reclen;
				if (dp->d_fileno == 0 || (dp->d_name[0] == '.' && (dp->d_namlen == 1 ||
				    (dp->d_namlen == 2 && dp->d_name[1] == '.'))))
					continue;
				/*
				 * Only the inode number is in the entry; a match is confirmed by
				 * stat, which also checks the device across mount points.
				 */
				if (parent.st_dev == cur.st_dev && dp->d_fileno != cur.st_ino)
					continue;
				{
					char cand[PATH_MAX];
					struct stat sb;
					size_t k = 0;

					if (uplen + 1 + dp->d_namlen + 1 > sizeof cand)
						continue;
					for (i = 0; i < uplen; i++)
						cand[k++] = up[i];
					cand[k++] = '/';
					for (i = 0; i < dp->d_namlen; i++)
						cand[k++] = dp->d_name[i];
					cand[k] = '\0';
					if (lstat(cand, &sb) < 0 || sb.st_dev != cur.st_dev || sb.st_ino != cur.st_ino)
						continue;
				}
				if (start < (size_t)dp->d_namlen + 1) {
					close(fd);
					errno = ENAMETOOLONG;
					return 0;
				}
				start -= dp->d_namlen;
				for (i = 0; i < dp->d_namlen; i++)
					path[start + i] = dp->d_name[i];
				path[--start] = '/';
				found = 1;
			}
		}
		close(fd);
		if (!found) {
			if (n >= 0)
				errno = ENOENT;
			return 0;
		}
		cur = parent;
	}
	if (path[start] == '\0')
		path[--start] = '/';
	if (sizeof path - start > size) {
		errno = ERANGE;
		return 0;
	}
	for (i = 0; start + i < sizeof path; i++)
		buf[i] = path[start + i];
	return buf;
}
