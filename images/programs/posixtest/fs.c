/* posixtest groups links, attrs and io: names, attributes and transfers of files. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include "posixtest.h"

/* The d_type readdir reports for name in dir, or -1 when the name is not listed. */
static int dtype(const char *dir, const char *name)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int t = -1;

	while (d && (e = readdir(d)) != NULL)
		if (strcmp(e->d_name, name) == 0)
			t = e->d_type;
	if (d)
		closedir(d);
	return t;
}

static int file_is(const char *path, const char *want)
{
	char buf[64];
	int fd = open(path, O_RDONLY), n;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof buf);
	close(fd);
	return n == (int)strlen(want) && memcmp(buf, want, n) == 0;
}

void group_links(void)
{
	struct stat sb, lsb;
	char buf[32];
	int ok, n, fd;

	put_file("pl-target", "target data", 11);
	ok = symlink("pl-target", "pl-link") == 0;
	memset(buf, '#', sizeof buf);
	n = readlink("pl-link", buf, sizeof buf);
	ok = ok && n == 9 && memcmp(buf, "pl-target", 9) == 0 && buf[9] == '#';
	check("symlink; readlink returns the target, not NUL-terminated", ok, strerror(errno));
	n = readlink("pl-link", buf, 4);
	check("readlink truncates to the buffer", n == 4 && memcmp(buf, "pl-t", 4) == 0, "wrong count");
	ok = lstat("pl-link", &lsb) == 0 && S_ISLNK(lsb.st_mode) && lsb.st_size == 9;
	ok = ok && stat("pl-link", &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size == 11 && sb.st_ino != lsb.st_ino;
	check("lstat sees the link, stat what it names", ok, "wrong types or sizes");
	check("open follows the link", file_is("pl-link", "target data"), "wrong data");
	errno = 0;
	ok = readlink("pl-target", buf, sizeof buf) < 0 && errno == EINVAL;
	check("readlink of a file that is not a link: EINVAL", ok, strerror(errno));
	check("readdir reports DT_LNK and DT_REG", dtype(".", "pl-link") == DT_LNK && dtype(".", "pl-target") == DT_REG,
	    "wrong d_type");

	symlink("pl-missing", "pl-dangling");
	errno = 0;
	ok = stat("pl-dangling", &sb) < 0 && errno == ENOENT && lstat("pl-dangling", &sb) == 0;
	check("a dangling link: stat fails with ENOENT, lstat works", ok, strerror(errno));
	errno = 0;
	ok = open("pl-dangling", O_WRONLY | O_CREAT | O_EXCL, 0644) < 0 && errno == EEXIST;
	check("O_CREAT|O_EXCL on a link fails with EEXIST", ok, strerror(errno));
	fd = open("pl-dangling", O_WRONLY | O_CREAT, 0644);
	ok = fd >= 0 && write(fd, "made", 4) == 4 && close(fd) == 0 && file_is("pl-missing", "made");
	check("O_CREAT through a dangling link creates its target", ok, strerror(errno));

	symlink("pl-loop2", "pl-loop1");
	symlink("pl-loop1", "pl-loop2");
	errno = 0;
	ok = open("pl-loop1", O_RDONLY) < 0 && errno == ELOOP;
	check("a loop of links fails with ELOOP", ok, strerror(errno));

	mkdir("pl-dir", 0755);
	mkdir("pl-dir/sub", 0755);
	put_file("pl-dir/sub/f", "in sub", 6);
	symlink("sub/f", "pl-dir/rel");		/* relative to pl-dir, where the link is */
	symlink("pl-dir/sub", "pl-dlink");
	ok = file_is("pl-dir/rel", "in sub") && file_is("pl-dlink/f", "in sub");
	ok = ok && stat("pl-dlink/", &sb) == 0 && S_ISDIR(sb.st_mode);
	check("relative links resolve from their directory; links to directories in paths", ok, "not found");
	{
		char cwd[1024], abs[1100];

		if (getcwd(cwd, sizeof cwd) == NULL)
			cwd[0] = 0;
		snprintf(abs, sizeof abs, "%s/pl-dir/sub/f", cwd);
		ok = symlink(abs, "pl-abs") == 0 && file_is("pl-abs", "in sub");
		check("an absolute link", ok, strerror(errno));
	}
	ok = chdir("pl-dlink") == 0 && file_is("f", "in sub") && chdir("../..") == 0 && file_is("pl-target", "target data");
	check("chdir through a link; .. is the physical parent", ok, strerror(errno));

	ok = link("pl-target", "pl-hard") == 0 && stat("pl-hard", &sb) == 0 && stat("pl-target", &lsb) == 0;
	ok = ok && sb.st_ino == lsb.st_ino && sb.st_nlink == 2;
	check("link: a second name, nlink 2", ok, strerror(errno));
	fd = open("pl-hard", O_WRONLY | O_TRUNC);
	write(fd, "changed", 7);
	close(fd);
	ok = file_is("pl-target", "changed") && unlink("pl-target") == 0 && stat("pl-hard", &sb) == 0 && sb.st_nlink == 1;
	check("writes through one name show through the other; unlink leaves the other", ok, "lost");
	errno = 0;
	ok = link("pl-hard", "pl-link") < 0 && errno == EEXIST;
	check("link to an existing name: EEXIST", ok, strerror(errno));
	ok = unlink("pl-link") == 0 && lstat("pl-link", &sb) < 0 && stat("pl-missing", &sb) == 0;
	ok = ok && rename("pl-dangling", "pl-moved") == 0 && lstat("pl-moved", &sb) == 0 && S_ISLNK(sb.st_mode);
	check("unlink and rename act on the link, not its target", ok, strerror(errno));

	unlink("pl-hard");
	unlink("pl-missing");
	unlink("pl-moved");
	unlink("pl-loop1");
	unlink("pl-loop2");
	unlink("pl-abs");
	unlink("pl-dlink");
	unlink("pl-dir/rel");
	unlink("pl-dir/sub/f");
	rmdir("pl-dir/sub");
	ok = rmdir("pl-dir") == 0;
	check("everything removed", ok, strerror(errno));
}

void group_attrs(void)
{
	char cwd[1024], sub[1024];
	struct stat sb;
	struct timeval tv[2];
	mode_t old;
	int fd, ok, dfd;

	old = umask(077);
	fd = open("pa-f", O_RDWR | O_CREAT | O_TRUNC, 0666);
	ok = umask(old) == 077 && old == 022 && fstat(fd, &sb) == 0 && (sb.st_mode & 0777) == 0600;
	check("umask masks the creation mode and returns the previous mask", ok, "wrong mode");
	ok = chmod("pa-f", 0751) == 0 && stat("pa-f", &sb) == 0 && (sb.st_mode & 07777) == 0751;
	ok = ok && fchmod(fd, 0640) == 0 && fstat(fd, &sb) == 0 && (sb.st_mode & 07777) == 0640 && S_ISREG(sb.st_mode);
	check("chmod and fchmod", ok, strerror(errno));
	ok = chown("pa-f", getuid(), getgid()) == 0 && fchown(fd, (uid_t)-1, (gid_t)-1) == 0;
	ok = ok && stat("pa-f", &sb) == 0 && sb.st_uid == getuid() && sb.st_gid == getgid();
	check("chown and fchown (-1 leaves an id alone)", ok, strerror(errno));
	tv[0].tv_sec = 1000000;
	tv[0].tv_usec = 0;
	tv[1].tv_sec = 2000000;
	tv[1].tv_usec = 500000;
	ok = utimes("pa-f", tv) == 0 && stat("pa-f", &sb) == 0 && sb.st_atime == 1000000 && sb.st_mtime == 2000000;
	check("utimes sets the access and modification times", ok, strerror(errno));
	ok = utimes("pa-f", NULL) == 0 && stat("pa-f", &sb) == 0 && sb.st_mtime >= time(NULL) - 5 && sb.st_mtime <= time(NULL);
	check("utimes(NULL) sets them to now", ok, "wrong time");
	ok = access("pa-f", F_OK) == 0 && access("pa-f", R_OK) == 0;
	errno = 0;
	ok = ok && access("pa-f", X_OK) < 0 && errno == EACCES;
	ok = ok && chmod("pa-f", 0750) == 0 && access("pa-f", X_OK) == 0;
	errno = 0;
	ok = ok && access("pa-none", F_OK) < 0 && errno == ENOENT;
	check("access: F_OK, R_OK, X_OK (EACCES without an x bit), ENOENT", ok, strerror(errno));

	write(fd, "0123456789", 10);
	ok = ftruncate(fd, 4) == 0 && fstat(fd, &sb) == 0 && sb.st_size == 4;
	ok = ok && truncate("pa-f", 8) == 0 && stat("pa-f", &sb) == 0 && sb.st_size == 8;
	{
		char b[16];

		ok = ok && pread(fd, b, sizeof b, 0) == 8 && memcmp(b, "0123\0\0\0\0", 8) == 0;
	}
	check("ftruncate shrinks, truncate grows with zeros", ok, strerror(errno));
	close(fd);
	fd = open("pa-f", O_RDONLY);
	errno = 0;
	ok = ftruncate(fd, 0) < 0 && (errno == EINVAL || errno == EBADF);
	close(fd);
	mkdir("pa-d", 0755);
	errno = 0;
	ok = ok && truncate("pa-d", 0) < 0 && errno == EISDIR;
	check("ftruncate of a read-only descriptor and truncate of a directory fail", ok, strerror(errno));

	errno = 0;
	ok = mkdir("pa-d", 0755) < 0 && errno == EEXIST;
	errno = 0;
	ok = ok && rmdir("pa-f") < 0 && errno == ENOTDIR;
	check("mkdir of an existing name: EEXIST; rmdir of a file: ENOTDIR", ok, strerror(errno));
	mkdir("pa-d/sub", 0700);
	ok = stat("pa-d/sub", &sb) == 0 && S_ISDIR(sb.st_mode) && (sb.st_mode & 0777) == 0700;
	check("mkdir makes a directory with the mode asked", ok, strerror(errno));
	ok = getcwd(cwd, sizeof cwd) != NULL;
	dfd = open(".", O_RDONLY);
	ok = ok && chdir("pa-d/sub") == 0 && getcwd(sub, sizeof sub) != NULL;
	ok = ok && strlen(sub) == strlen(cwd) + 9 && strncmp(sub, cwd, strlen(cwd)) == 0 && strcmp(sub + strlen(cwd), "/pa-d/sub") == 0;
	check("chdir and getcwd", ok, sub);
	errno = 0;
	ok = getcwd(sub, 3) == NULL && errno == ERANGE;
	check("getcwd with a short buffer: ERANGE", ok, strerror(errno));
	ok = fchdir(dfd) == 0 && getcwd(sub, sizeof sub) != NULL && strcmp(sub, cwd) == 0;
	close(dfd);
	check("fchdir back to a directory open on a descriptor", ok, strerror(errno));
	fd = open("pa-f", O_RDONLY);
	errno = 0;
	ok = fchdir(fd) < 0 && errno == ENOTDIR;
	close(fd);
	check("fchdir to a file: ENOTDIR", ok, strerror(errno));
	ok = rmdir("pa-d/sub") == 0 && rmdir("pa-d") == 0 && unlink("pa-f") == 0;
	check("rmdir and unlink clean up", ok, strerror(errno));
}

void group_io(void)
{
	char a[8], b[8], c[8], buf[64];
	struct iovec iov[3];
	struct stat sb;
	int fd, p[2], ok, n;

	fd = open("pi-f", O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(fd, "abcdef", 6);
	ok = pwrite(fd, "XYZ", 3, 100) == 3 && lseek(fd, 0, SEEK_CUR) == 6 && fstat(fd, &sb) == 0 && sb.st_size == 103;
	check("pwrite at an offset leaves the file offset alone", ok, strerror(errno));
	ok = pread(fd, buf, 4, 99) == 4 && memcmp(buf, "\0XYZ", 4) == 0 && lseek(fd, 0, SEEK_CUR) == 6;
	ok = ok && pread(fd, buf, 10, 200) == 0;
	check("pread at an offset, and past the end", ok, strerror(errno));
	errno = 0;
	ok = pread(fd, buf, 1, -1) < 0 && errno == EINVAL;
	check("pread at a negative offset: EINVAL", ok, strerror(errno));

	iov[0].iov_base = "one-";
	iov[0].iov_len = 4;
	iov[1].iov_base = "";
	iov[1].iov_len = 0;
	iov[2].iov_base = "two";
	iov[2].iov_len = 3;
	lseek(fd, 0, SEEK_SET);
	ok = writev(fd, iov, 3) == 7 && lseek(fd, 0, SEEK_CUR) == 7;
	lseek(fd, 0, SEEK_SET);
	iov[0].iov_base = a;
	iov[0].iov_len = 2;
	iov[1].iov_base = b;
	iov[1].iov_len = 3;
	iov[2].iov_base = c;
	iov[2].iov_len = 8;
	n = readv(fd, iov, 3);
	ok = ok && n == 13 && memcmp(a, "on", 2) == 0 && memcmp(b, "e-t", 3) == 0 && memcmp(c, "wo\0\0\0\0\0\0", 8) == 0;
	check("writev gathers, readv scatters, both move the offset", ok, strerror(errno));
	ok = fsync(fd) == 0;
	check("fsync of a file", ok, strerror(errno));
	close(fd);
	unlink("pi-f");

	pipe(p);
	iov[0].iov_base = "pipe ";
	iov[0].iov_len = 5;
	iov[1].iov_base = "data";
	iov[1].iov_len = 4;
	ok = writev(p[1], iov, 2) == 9 && read(p[0], buf, sizeof buf) == 9 && memcmp(buf, "pipe data", 9) == 0;
	check("writev into a pipe", ok, strerror(errno));
	errno = 0;
	ok = pread(p[0], buf, 1, 0) < 0 && errno == ESPIPE;
	check("pread of a pipe: ESPIPE", ok, strerror(errno));
	errno = 0;
	ok = fsync(p[1]) < 0 && errno == EINVAL;
	check("fsync of a pipe: EINVAL", ok, strerror(errno));
	errno = 0;
	ok = readv(p[0], iov, -1) < 0 && errno == EINVAL;
	check("readv with a negative count: EINVAL", ok, strerror(errno));
	close(p[0]);
	close(p[1]);
}
