/*
 * Name and descriptor calls of the Linux flavour whose arguments and results mean the same in
 * both systems: only the numbers and the errno values are translated.
 */
#include <lsys.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

int
unlink(const char *path)
{
	return __lsys_ret(__lsys1(LNR_unlink, path));
}

int
chdir(const char *path)
{
	return __lsys_ret(__lsys1(LNR_chdir, path));
}

int
chmod(const char *path, mode_t mode)
{
	return __lsys_ret(__lsys2(LNR_chmod, path, mode));
}

int
access(const char *path, int mode)
{
	return __lsys_ret(__lsys2(LNR_access, path, mode));
}

int
rename(const char *from, const char *to)
{
	return __lsys_ret(__lsys2(LNR_rename, from, to));
}

int
mkdir(const char *path, mode_t mode)
{
	return __lsys_ret(__lsys2(LNR_mkdir, path, mode));
}

int
rmdir(const char *path)
{
	return __lsys_ret(__lsys1(LNR_rmdir, path));
}

mode_t
umask(mode_t mask)
{
	return __lsys1(LNR_umask, mask);
}

int
dup(int fd)
{
	return __lsys_ret(__lsys1(LNR_dup, fd));
}

int
dup2(int from, int to)
{
	return __lsys_ret(__lsys2(LNR_dup2, from, to));
}

int
link(const char *path, const char *newpath)
{
	return __lsys_ret(__lsys2(LNR_link, path, newpath));
}

int
symlink(const char *target, const char *path)
{
	return __lsys_ret(__lsys2(LNR_symlink, target, path));
}

ssize_t
readlink(const char *restrict path, char *restrict buf, size_t n)
{
	return __lsys_ret(__lsys3(LNR_readlink, path, buf, n));
}

int
fchdir(int fd)
{
	return __lsys_ret(__lsys1(LNR_fchdir, fd));
}

int
fchmod(int fd, mode_t mode)
{
	return __lsys_ret(__lsys2(LNR_fchmod, fd, mode));
}

/* 32-bit ids: MIPS's chown and fchown take them; sparc32's take 16 bits, chown32 and fchown32 32. */
#ifdef LNR_chown32
#define LNR_chown	LNR_chown32
#define LNR_fchown	LNR_fchown32
#endif

int
chown(const char *path, uid_t uid, gid_t gid)
{
	return __lsys_ret(__lsys3(LNR_chown, path, uid, gid));
}

int
fchown(int fd, uid_t uid, gid_t gid)
{
	return __lsys_ret(__lsys3(LNR_fchown, fd, uid, gid));
}

int
utimes(const char *path, const struct timeval *tv)
{
	return __lsys_ret(__lsys2(LNR_utimes, path, tv));
}

int
fsync(int fd)
{
	return __lsys_ret(__lsys1(LNR_fsync, fd));
}

/* LOCK_SH, LOCK_EX, LOCK_NB and LOCK_UN have the same values in both systems. */
int
flock(int fd, int how)
{
	return __lsys_ret(__lsys2(LNR_flock, fd, how));
}
