/*
 * getdirentries for the Linux flavour, over getdents64. Linux records (u64 inode, s64 offset,
 * u16 length, u8 type, name, NUL, padded to 8) are converted in place to 4.4BSD's struct dirent
 * (u32 inode, u16 length, u8 type, u8 name length, name, NUL, padded to 4). A 4.4BSD record is
 * never longer than the Linux record it comes from, so the conversion can write behind the read
 * position. The d_type values are the same in both systems.
 */
#include <dirent.h>
#include <errno.h>
#include <lsys.h>
#include <stdint.h>
#include <unistd.h>

/* Offsets in a Linux struct linux_dirent64 record. */
#define L_INO		0
#define L_RECLEN	16
#define L_TYPE		18
#define L_NAME		19

int
getdirentries(int fd, char *buf, int nbytes, long *basep)
{
	long n, in, out;
	off_t base;

	base = lseek(fd, 0, SEEK_CUR);
	if (base < 0)
		return -1;
	n = __lsys_ret(__lsys3(LNR_getdents64, fd, buf, nbytes));
	if (n < 0)
		return -1;
	for (in = out = 0; in < n; ) {
		const unsigned char *l = (const unsigned char *)buf + in;
		struct dirent *d = (struct dirent *)(buf + out);
		uint64_t ino;
		uint16_t reclen;
		unsigned namlen, i;
		unsigned char type;

		/* Read everything of the Linux record before the BSD one overwrites its start. */
		__builtin_memcpy(&ino, l + L_INO, sizeof ino);
		__builtin_memcpy(&reclen, l + L_RECLEN, sizeof reclen);
		type = l[L_TYPE];
		for (namlen = 0; l[L_NAME + namlen] != '\0'; namlen++)
			;
		if (namlen > MAXNAMLEN) {
			errno = ENAMETOOLONG;
			return -1;
		}
		d->d_fileno = (uint32_t)ino;
		d->d_type = type;
		d->d_namlen = namlen;
		/* Forward copy: the destination never passes the source. */
		for (i = 0; i <= namlen; i++)
			d->d_name[i] = l[L_NAME + i];
		for (i = namlen + 1; (8 + i) % 4 != 0; i++)
			d->d_name[i] = '\0';
		d->d_reclen = _DIRENT_RECLEN(namlen);
		out += d->d_reclen;
		in += reclen;
	}
	if (basep)
		*basep = (long)base;
	return (int)out;
}
