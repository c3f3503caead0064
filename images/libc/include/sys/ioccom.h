/*
 * ioctl request encoding (4.4BSD <sys/ioccom.h>): the top three bits give the direction of the
 * argument copy, bits 16-28 its size, bits 8-15 a group letter and bits 0-7 the command.
 */
#ifndef _SYS_IOCCOM_H_
#define _SYS_IOCCOM_H_

#define IOCPARM_MASK	0x1fff		/* parameter length, at most 13 bits */
#define IOCPARM_LEN(x)	(((x) >> 16) & IOCPARM_MASK)
#define IOCBASECMD(x)	((x) & ~(IOCPARM_MASK << 16))
#define IOCGROUP(x)	(((x) >> 8) & 0xff)

#define IOCPARM_MAX	4096		/* max size of ioctl argument */
#define IOC_VOID	0x20000000UL	/* no parameters */
#define IOC_OUT		0x40000000UL	/* copy out parameters */
#define IOC_IN		0x80000000UL	/* copy in parameters */
#define IOC_INOUT	(IOC_IN | IOC_OUT)
#define IOC_DIRMASK	0xe0000000UL	/* mask for IN/OUT/VOID */

#define _IOC(inout, group, num, len) \
	((unsigned long)((inout) | (((len) & IOCPARM_MASK) << 16) | ((group) << 8) | (num)))
#define _IO(g, n)	_IOC(IOC_VOID, (g), (n), 0)
#define _IOR(g, n, t)	_IOC(IOC_OUT, (g), (n), sizeof(t))
#define _IOW(g, n, t)	_IOC(IOC_IN, (g), (n), sizeof(t))
#define _IOWR(g, n, t)	_IOC(IOC_INOUT, (g), (n), sizeof(t))

#endif /* !_SYS_IOCCOM_H_ */
