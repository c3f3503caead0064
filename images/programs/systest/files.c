/* systest: regular files and descriptors (open, creat, read, write, lseek, stat, dup, fcntl...). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "systest.h"

#define F1	"st_file"
#define F2	"st_renamed"

static int
readall(int fd, char *buf, int max)
{
	int n, got = 0;

	while (got < max && (n = read(fd, buf + got, max - got)) > 0)
		got += n;
	return got;
}

void
t_files(void)
{
	char buf[64];
	struct stat sb;
	int fd, fd2, r, fl;
	off_t off;

	outf("== files\n");
	fd = open(F1, O_WRONLY | O_CREAT | O_EXCL, 0666);
	CHECK_SYS("open O_CREAT|O_EXCL creates a file", fd >= 0);
	CHECK_SYS("write returns the byte count", write(fd, "hello, world\n", 13) == 13);
	r = open(F1, O_WRONLY | O_CREAT | O_EXCL, 0666);
	CHECK_ERRNO("open O_EXCL of an existing file", r < 0, EEXIST);
	check("fstat: size 13, regular file", fstat(fd, &sb) == 0 && sb.st_size == 13 && S_ISREG(sb.st_mode), 0);
	check("mode is 0666 & ~umask 022", (sb.st_mode & 0777) == 0644, 0);
	CHECK_SYS("close", close(fd) == 0);
	CHECK_ERRNO("close of a closed descriptor", close(fd) < 0, EBADF);
	CHECK_ERRNO("read of a closed descriptor", read(fd, buf, 1) < 0, EBADF);

	fd = open(F1, O_RDONLY);
	r = readall(fd, buf, sizeof buf);
	check("read back what was written", r == 13 && memcmp(buf, "hello, world\n", 13) == 0, 0);
	check("read at end of file returns 0", read(fd, buf, 1) == 0, 0);
	check("lseek SEEK_END gives the size", lseek(fd, 0, SEEK_END) == 13, 0);
	check("lseek SEEK_SET", lseek(fd, 7, SEEK_SET) == 7, 0);
	check("read after lseek", read(fd, buf, 5) == 5 && memcmp(buf, "world", 5) == 0, 0);
	check("lseek SEEK_CUR backwards", lseek(fd, -6, SEEK_CUR) == 6, 0);
	check("read after SEEK_CUR", read(fd, buf, 1) == 1 && buf[0] == ' ', 0);
	off = lseek(fd, (off_t)1 << 32, SEEK_SET);
	outf("lseek to 2^32 returns %lld\n", (long long)off);
	check("64-bit offsets survive lseek", off == (off_t)1 << 32 && lseek(fd, 0, SEEK_CUR) == (off_t)1 << 32, 0);
	CHECK_ERRNO("lseek to a negative offset", lseek(fd, -1, SEEK_SET) < 0, EINVAL);
	CHECK_ERRNO("write to a read-only descriptor", write(fd, "x", 1) < 0, EBADF);
	check("stat agrees with fstat", stat(F1, &sb) == 0 && sb.st_size == 13, 0);
	check("isatty of a file is 0", isatty(fd) == 0, 0);
	close(fd);

	/* O_APPEND writes at the end whatever the offset; F_GETFL reports the flags back. */
	fd = open(F1, O_WRONLY | O_APPEND);
	lseek(fd, 0, SEEK_SET);
	check("O_APPEND write", write(fd, "more\n", 5) == 5, 0);
	check("O_APPEND wrote at the end", fstat(fd, &sb) == 0 && sb.st_size == 18, 0);
	fl = fcntl(fd, F_GETFL);
	check("F_GETFL: O_WRONLY|O_APPEND", fl >= 0 && (fl & O_ACCMODE) == O_WRONLY && (fl & O_APPEND), 0);
	check("F_SETFL clears O_APPEND", fcntl(fd, F_SETFL, 0) == 0 && !(fcntl(fd, F_GETFL) & O_APPEND), 0);
	close(fd);

	/* dup'ed descriptors share one offset; dup2 picks the number; FD_CLOEXEC is per descriptor. */
	fd = open(F1, O_RDONLY);
	fd2 = dup(fd);
	check("dup gives a new descriptor", fd2 >= 0 && fd2 != fd, 0);
	lseek(fd, 3, SEEK_SET);
	check("dup'ed descriptors share the offset", lseek(fd2, 0, SEEK_CUR) == 3, 0);
	CHECK_SYS("dup2 to descriptor 9", dup2(fd, 9) == 9);
	check("dup2 target reads the same file", read(9, buf, 2) == 2 && memcmp(buf, "lo", 2) == 0, 0);
	check("F_GETFD of a new descriptor is 0", fcntl(9, F_GETFD) == 0, 0);
	check("F_SETFD FD_CLOEXEC", fcntl(9, F_SETFD, FD_CLOEXEC) == 0 && fcntl(9, F_GETFD) == FD_CLOEXEC, 0);
	check("F_DUPFD takes the lowest free number >= arg", fcntl(fd, F_DUPFD, 20) == 20, 0);
	check("dup2 onto itself", dup2(9, 9) == 9, 0);
	close(9);
	close(20);
	close(fd2);
	close(fd);
	CHECK_ERRNO("F_GETFD of a closed descriptor", fcntl(9, F_GETFD) < 0, EBADF);

	/* O_TRUNC and creat. */
	fd = open(F1, O_RDWR | O_TRUNC);
	check("O_TRUNC empties the file", fd >= 0 && fstat(fd, &sb) == 0 && sb.st_size == 0, 0);
	close(fd);
	fd = creat(F2, 0600);
	check("creat", fd >= 0 && write(fd, "x", 1) == 1, 0);
	check("creat mode 0600", fstat(fd, &sb) == 0 && (sb.st_mode & 0777) == 0600, 0);
	close(fd);
	CHECK_SYS("rename over an existing file", rename(F2, F1) == 0);
	CHECK_ERRNO("renamed file is gone from the old name", stat(F2, &sb) < 0, ENOENT);
	check("rename kept the contents", stat(F1, &sb) == 0 && sb.st_size == 1, 0);
	CHECK_SYS("access R_OK|W_OK", access(F1, R_OK | W_OK) == 0);
	check("chmod", chmod(F1, 0400) == 0 && stat(F1, &sb) == 0 && (sb.st_mode & 0777) == 0400, 0);
	CHECK_SYS("unlink", unlink(F1) == 0);
	CHECK_ERRNO("open of an unlinked file", open(F1, O_RDONLY) < 0, ENOENT);
	CHECK_ERRNO("unlink of a missing file", unlink(F1) < 0, ENOENT);
	CHECK_ERRNO("access of a missing file", access(F1, F_OK) < 0, ENOENT);
	CHECK_ERRNO("open of a path through a file", open("systest.nodir/x", O_RDONLY) < 0, ENOENT);
}
