/*
 * Directory entries as getdirentries(2) returns them (4.4BSD-Lite2 <sys/dirent.h>): records of
 * d_reclen bytes, a multiple of 4, packed into the caller's buffer.
 */
#ifndef _SYS_DIRENT_H_
#define _SYS_DIRENT_H_

#include <sys/types.h>

#define MAXNAMLEN	255

struct dirent {
	uint32_t d_fileno;		/* file number of entry */
	uint16_t d_reclen;		/* length of this record */
	uint8_t	 d_type;		/* file type, see below */
	uint8_t	 d_namlen;		/* length of string in d_name */
	char	 d_name[MAXNAMLEN + 1];	/* name, NUL-terminated */
};

/* d_type */
#define DT_UNKNOWN	 0
#define DT_FIFO		 1
#define DT_CHR		 2
#define DT_DIR		 4
#define DT_BLK		 6
#define DT_REG		 8
#define DT_LNK		10
#define DT_SOCK		12

/* The size of a record holding a name of namlen bytes: header, name, NUL, rounded up to 4. */
#define _DIRENT_RECLEN(namlen)	((8 + (namlen) + 1 + 3) & ~3)

#endif /* !_SYS_DIRENT_H_ */
