/*
 * The Linux flavour's system-call layer (private to libc): the Linux-numbered trap, and the
 * translation of its results into the BSD conventions that the rest of libc and every guest
 * program see (errno values of <errno.h>, -1 on failure).
 */
#ifndef _LSYS_H_
#define _LSYS_H_

#include <errno.h>
#include <stdint.h>
#include <linux_nr.h>

/* The trap (<isa>/lsyscall.S): returns the result, or -(Linux errno) on failure. */
long __lsyscall(long a1, long a2, long a3, long a4, long a5, long a6, long nr);

#define __lsys0(nr)		__lsyscall(0, 0, 0, 0, 0, 0, (nr))
#define __lsys1(nr, a)		__lsyscall((long)(a), 0, 0, 0, 0, 0, (nr))
#define __lsys2(nr, a, b)	__lsyscall((long)(a), (long)(b), 0, 0, 0, 0, (nr))
#define __lsys3(nr, a, b, c)	__lsyscall((long)(a), (long)(b), (long)(c), 0, 0, 0, (nr))
#define __lsys4(nr, a, b, c, d)	__lsyscall((long)(a), (long)(b), (long)(c), (long)(d), 0, 0, (nr))
#define __lsys5(nr, a, b, c, d, e) \
	__lsyscall((long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0, (nr))
#define __lsys6(nr, a, b, c, d, e, f) \
	__lsyscall((long)(a), (long)(b), (long)(c), (long)(d), (long)(e), (long)(f), (nr))

/*
 * The two argument words of a 64-bit value as the C convention passes them: in the memory
 * order of the byte order (MIPS little-endian: low word first; big-endian: high word first).
 */
union __lsys_ll {
	int64_t	v;
	long	w[2];
};

/* Linux errno (this architecture's numbering) -> <errno.h> value (errno_xlat.c). */
int __errno_from_linux(int lerrno);

/* Linux reserves the top 4095 values of the result for -errno. */
static inline int
__lsys_failed(long r)
{
	return (unsigned long)r >= (unsigned long)-4095L;
}

/* A raw result in the libc convention: the value, or -1 with errno set. */
static inline long
__lsys_ret(long r)
{
	if (__lsys_failed(r)) {
		errno = __errno_from_linux((int)-r);
		return -1;
	}
	return r;
}

#endif /* !_LSYS_H_ */
