/*
 * Linux MIPS (o32) terminal ioctls and termios values, from the Linux UAPI asm/ headers, for the
 * Linux flavour's translations; test/images/linux_abi.test.ts checks them against the installed
 * headers.
 */
#ifndef _LINUX_TERMIOS_H_
#define _LINUX_TERMIOS_H_

#define LINUX_TCGETS		0x540d
#define LINUX_TCSETS		0x540e
#define LINUX_TCSETSW		0x540f
#define LINUX_TCSETSF		0x5410
#define LINUX_TIOCGWINSZ	0x40087468
#define LINUX_TIOCSWINSZ	0x80087467
#define LINUX_TIOCGPGRP		0x40047477
#define LINUX_TIOCSPGRP		0x80047476
#define LINUX_FIONREAD		0x467f
#define LINUX_FIONBIO		0x667e
#define LINUX_FIOCLEX		0x6601
#define LINUX_FIONCLEX		0x6602
#define LINUX_NCCS		23
#define LINUX_VEOF		16
#define LINUX_VEOL		17
#define LINUX_VERASE		2
#define LINUX_VKILL		3
#define LINUX_VINTR		0
#define LINUX_VQUIT		1
#define LINUX_VSUSP		10
#define LINUX_VSTART		8
#define LINUX_VSTOP		9
#define LINUX_VMIN		4
#define LINUX_VTIME		5
#define LINUX_IGNBRK		1
#define LINUX_BRKINT		2
#define LINUX_IGNPAR		4
#define LINUX_PARMRK		8
#define LINUX_INPCK		16
#define LINUX_ISTRIP		32
#define LINUX_INLCR		64
#define LINUX_IGNCR		0x80
#define LINUX_ICRNL		0x100
#define LINUX_IXON		0x400
#define LINUX_IXOFF		0x1000
#define LINUX_OPOST		1
#define LINUX_ONLCR		4
#define LINUX_CSIZE		48
#define LINUX_CS5		0
#define LINUX_CS6		16
#define LINUX_CS7		32
#define LINUX_CS8		48
#define LINUX_CSTOPB		64
#define LINUX_CREAD		0x80
#define LINUX_PARENB		0x100
#define LINUX_PARODD		0x200
#define LINUX_HUPCL		0x400
#define LINUX_CLOCAL		0x800
#define LINUX_CBAUD		0x100f
#define LINUX_ECHOE		16
#define LINUX_ECHOK		32
#define LINUX_ECHO		8
#define LINUX_ECHONL		64
#define LINUX_ISIG		1
#define LINUX_ICANON		2
#define LINUX_IEXTEN		0x100
#define LINUX_TOSTOP		0x8000
#define LINUX_NOFLSH		0x80
#define LINUX_B0		0
#define LINUX_B50		1
#define LINUX_B75		2
#define LINUX_B110		3
#define LINUX_B134		4
#define LINUX_B150		5
#define LINUX_B200		6
#define LINUX_B300		7
#define LINUX_B600		8
#define LINUX_B1200		9
#define LINUX_B1800		10
#define LINUX_B2400		11
#define LINUX_B4800		12
#define LINUX_B9600		13
#define LINUX_B19200		14
#define LINUX_B38400		15

#endif /* !_LINUX_TERMIOS_H_ */
