/* systest: directories (mkdir, rmdir, chdir, getcwd, opendir/readdir over getdirentries). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "systest.h"

#define D	"st_dir"

static void
touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);

	if (fd >= 0)
		close(fd);
}

void
t_dirs(void)
{
	char names[8][32], tmp[32], cwd[PATH_MAX], cwd2[PATH_MAX];
	struct dirent *dp;
	struct stat sb;
	DIR *dir;
	int n = 0, i, j, dots = 0;
	size_t len;

	outf("== directories\n");
	CHECK_SYS("mkdir", mkdir(D, 0755) == 0);
	CHECK_ERRNO("mkdir of an existing directory", mkdir(D, 0755) < 0, EEXIST);
	check("stat of a directory", stat(D, &sb) == 0 && S_ISDIR(sb.st_mode), 0);
	touch(D "/beta");
	touch(D "/alpha");
	touch(D "/gamma-with-a-longer-name");
	CHECK_ERRNO("open O_CREAT under a file", open(D "/beta/x", O_WRONLY | O_CREAT, 0666) < 0, ENOTDIR);
	CHECK_ERRNO("rmdir of a non-empty directory", rmdir(D) < 0, ENOTEMPTY);

	dir = opendir(D);
	CHECK_SYS("opendir", dir != 0);
	while (dir && (dp = readdir(dir)) != 0) {
		if (strcmp(dp->d_name, ".") == 0 || strcmp(dp->d_name, "..") == 0) {
			dots++;
			continue;
		}
		if (n < 8 && strlen(dp->d_name) < sizeof names[0])
			strcpy(names[n++], dp->d_name);
	}
	/* Directory order is the file system's: sort before printing. */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			strcpy(tmp, names[j]);
			strcpy(names[j], names[j - 1]);
			strcpy(names[j - 1], tmp);
		}
	outf("readdir found %d entries besides . and ..:", n);
	for (i = 0; i < n; i++)
		outf(" %s", names[i]);
	outf("\n");
	check("readdir sees . and ..", dots == 2, 0);
	if (dir) {
		rewinddir(dir);
		for (i = 0; readdir(dir) != 0; i++)
			;
		check("rewinddir restarts the listing", i == n + 2, 0);
		check("closedir", closedir(dir) == 0, 0);
	}
	CHECK_ERRNO("opendir of a file", opendir(D "/alpha") == 0, ENOTDIR);
	CHECK_ERRNO("opendir of a missing directory", opendir("st_missing") == 0, ENOENT);

	CHECK_SYS("getcwd", getcwd(cwd, sizeof cwd) != 0 && cwd[0] == '/');
	CHECK_SYS("chdir into the directory", chdir(D) == 0);
	check("relative names resolve in the new directory", stat("alpha", &sb) == 0, 0);
	len = strlen(cwd);
	check("getcwd after chdir", getcwd(cwd2, sizeof cwd2) != 0 && strncmp(cwd2, cwd, len) == 0 &&
	    strcmp(cwd2 + len, "/" D) == 0, 0);
	CHECK_ERRNO("getcwd into a too small buffer", getcwd(tmp, 2) == 0, ERANGE);
	check("chdir ..", chdir("..") == 0 && getcwd(cwd2, sizeof cwd2) != 0 && strcmp(cwd, cwd2) == 0, 0);
	CHECK_ERRNO("chdir to a file", chdir(D "/alpha") < 0, ENOTDIR);

	unlink(D "/alpha");
	unlink(D "/beta");
	unlink(D "/gamma-with-a-longer-name");
	CHECK_SYS("rmdir of the emptied directory", rmdir(D) == 0);
	CHECK_ERRNO("rmdir of a missing directory", rmdir(D) < 0, ENOENT);
}
