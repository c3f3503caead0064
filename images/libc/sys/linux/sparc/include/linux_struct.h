/*
 * Linux sparc32 structures that the Linux flavour converts to and from the 4.4BSD ones
 * (layouts of the Linux UAPI <asm/stat.h>, <asm/signal.h> and <asm/termbits.h>;
 * test/images/linux_abi.test.ts compares sizes and offsets with the installed headers).
 */
#ifndef _LINUX_STRUCT_H_
#define _LINUX_STRUCT_H_

#include <stdint.h>

struct linux_stat64 {
	uint64_t	st_dev;
	uint64_t	st_ino;
	uint32_t	st_mode;
	uint32_t	st_nlink;
	uint32_t	st_uid;
	uint32_t	st_gid;
	uint64_t	st_rdev;
	uint8_t		__pad3[8];
	int64_t		st_size;
	uint32_t	st_blksize;
	uint8_t		__pad4[8];
	uint32_t	st_blocks;
	uint32_t	st_atime_sec;
	uint32_t	st_atime_nsec;
	uint32_t	st_mtime_sec;
	uint32_t	st_mtime_nsec;
	uint32_t	st_ctime_sec;
	uint32_t	st_ctime_nsec;
	uint32_t	__unused4;
	uint32_t	__unused5;
};

/* The kernel's signal set for the rt_* calls: _NSIG = 64 (__NEW_NSIG). */
#define LINUX_NSIG_WORDS	2
typedef struct {
	uint32_t	sig[LINUX_NSIG_WORDS];
} linux_sigset_t;

/*
 * rt_sigaction(sig, act, oact, restorer, sizeof(linux_sigset_t)): the restorer travels as the
 * fourth argument; a handler returns (ret: jmpl %i7 + 8) to restorer + 8.
 */
struct linux_sigaction {
	void		(*sa_handler)(int);
	uint32_t	sa_flags;
	void		(*sa_restorer)(void);
	linux_sigset_t	sa_mask;
};

#define LINUX_TERMIOS_NCCS	17
struct linux_termios {
	uint32_t	c_iflag;
	uint32_t	c_oflag;
	uint32_t	c_cflag;
	uint32_t	c_lflag;
	uint8_t		c_line;
	uint8_t		c_cc[LINUX_TERMIOS_NCCS];
};

/* fcntl64's record lock (F_GETLK64, F_SETLK64, F_SETLKW64). */
struct linux_flock64 {
	int16_t		l_type;
	int16_t		l_whence;
	int64_t		l_start;
	int64_t		l_len;
	int32_t		l_pid;
};

#endif /* !_LINUX_STRUCT_H_ */
