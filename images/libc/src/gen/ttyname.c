/*
 * ttyname (after 4.4BSD lib/libc/gen/ttyname.c): the /dev entry of the terminal open on fd,
 * found by its device number.
 */
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *
ttyname(int fd)
{
	static char buf[5 + 256] = "/dev/";
	struct stat sb, db;
	struct dirent *e;
	DIR *d;

	if (!isatty(fd) || fstat(fd, &sb) < 0)
		return 0;
	if ((d = opendir("/dev")) == 0)
		return 0;
	while ((e = readdir(d)) != 0) {
		if (strlen(e->d_name) > 255)
			continue;
		strcpy(buf + 5, e->d_name);
		if (stat(buf, &db) == 0 && S_ISCHR(db.st_mode) && db.st_rdev == sb.st_rdev) {
			closedir(d);
			return buf;
		}
	}
	closedir(d);
	errno = ENOTTY;
	return 0;
}
