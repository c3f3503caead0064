/*
 * Name and descriptor calls of the Linux flavour whose arguments and results mean the same in
 * both systems: only the numbers and the errno values are translated.
 */
#include <lsys.h>
#include <sys/stat.h>
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
