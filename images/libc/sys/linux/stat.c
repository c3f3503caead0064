/* stat, fstat and lstat for the Linux flavour: Linux's stat64 converted to the 4.4BSD struct stat. */
#include <lsys.h>
#include <sys/stat.h>
#include <linux_struct.h>

static int
convert(long r, const struct linux_stat64 *l, struct stat *sb)
{
	if (__lsys_failed(r))
		return __lsys_ret(r);
	sb->st_dev = (dev_t)l->st_dev;
	sb->st_ino = (ino_t)l->st_ino;
	sb->st_mode = (mode_t)l->st_mode;
	sb->st_nlink = (nlink_t)l->st_nlink;
	sb->st_uid = l->st_uid;
	sb->st_gid = l->st_gid;
	sb->st_rdev = (dev_t)l->st_rdev;
	sb->st_atimespec.tv_sec = l->st_atime_sec;
	sb->st_atimespec.tv_nsec = l->st_atime_nsec;
	sb->st_mtimespec.tv_sec = l->st_mtime_sec;
	sb->st_mtimespec.tv_nsec = l->st_mtime_nsec;
	sb->st_ctimespec.tv_sec = l->st_ctime_sec;
	sb->st_ctimespec.tv_nsec = l->st_ctime_nsec;
	sb->st_size = l->st_size;
	sb->st_blocks = l->st_blocks;
	sb->st_blksize = l->st_blksize;
	sb->st_flags = 0;
	sb->st_gen = 0;
	sb->st_lspare = 0;
	sb->st_qspare[0] = sb->st_qspare[1] = 0;
	return 0;
}

int
stat(const char *path, struct stat *sb)
{
	struct linux_stat64 l;

	return convert(__lsys2(LNR_stat64, path, &l), &l, sb);
}

int
lstat(const char *path, struct stat *sb)
{
	struct linux_stat64 l;

	return convert(__lsys2(LNR_lstat64, path, &l), &l, sb);
}

int
fstat(int fd, struct stat *sb)
{
	struct linux_stat64 l;

	return convert(__lsys2(LNR_fstat64, fd, &l), &l, sb);
}
