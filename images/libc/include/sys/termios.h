/*
 * The terminal attributes structure of TIOCGETA/TIOCSETA (4.4BSD <sys/termios.h> layout and
 * values; the POSIX flags only).
 */
#ifndef _SYS_TERMIOS_H_
#define _SYS_TERMIOS_H_

typedef unsigned long	tcflag_t;
typedef unsigned char	cc_t;
typedef long		speed_t;

/* c_cc indices */
#define VEOF		0	/* ICANON */
#define VEOL		1	/* ICANON */
#define VERASE		3	/* ICANON */
#define VKILL		5	/* ICANON */
#define VINTR		8	/* ISIG */
#define VQUIT		9	/* ISIG */
#define VSUSP		10	/* ISIG */
#define VSTART		12	/* IXON, IXOFF */
#define VSTOP		13	/* IXON, IXOFF */
#define VMIN		16	/* !ICANON */
#define VTIME		17	/* !ICANON */
#define NCCS		20

/* c_iflag */
#define IGNBRK		0x00000001	/* ignore BREAK condition */
#define BRKINT		0x00000002	/* map BREAK to SIGINTR */
#define IGNPAR		0x00000004	/* ignore (discard) parity errors */
#define PARMRK		0x00000008	/* mark parity and framing errors */
#define INPCK		0x00000010	/* enable checking of parity errors */
#define ISTRIP		0x00000020	/* strip 8th bit off chars */
#define INLCR		0x00000040	/* map NL into CR */
#define IGNCR		0x00000080	/* ignore CR */
#define ICRNL		0x00000100	/* map CR to NL (ala CRMOD) */
#define IXON		0x00000200	/* enable output flow control */
#define IXOFF		0x00000400	/* enable input flow control */

/* c_oflag */
#define OPOST		0x00000001	/* enable following output processing */
#define ONLCR		0x00000002	/* map NL to CR-NL (ala CRMOD) */

/* c_cflag */
#define CSIZE		0x00000300	/* character size mask */
#define CS5		0x00000000	/* 5 bits (pseudo) */
#define CS6		0x00000100	/* 6 bits */
#define CS7		0x00000200	/* 7 bits */
#define CS8		0x00000300	/* 8 bits */
#define CSTOPB		0x00000400	/* send 2 stop bits */
#define CREAD		0x00000800	/* enable receiver */
#define PARENB		0x00001000	/* parity enable */
#define PARODD		0x00002000	/* odd parity, else even */
#define HUPCL		0x00004000	/* hang up on last close */
#define CLOCAL		0x00008000	/* ignore modem status lines */

/* c_lflag */
#define ECHOE		0x00000002	/* visually erase chars */
#define ECHOK		0x00000004	/* echo NL after line kill */
#define ECHO		0x00000008	/* enable echoing */
#define ECHONL		0x00000010	/* echo NL even if ECHO is off */
#define ISIG		0x00000080	/* enable signals INTR, QUIT, [D]SUSP */
#define ICANON		0x00000100	/* canonicalize input lines */
#define IEXTEN		0x00000400	/* enable DISCARD and LNEXT */
#define TOSTOP		0x00400000	/* stop background jobs from output */
#define NOFLSH		0x80000000	/* don't flush after interrupt */

struct termios {
	tcflag_t	c_iflag;	/* input flags */
	tcflag_t	c_oflag;	/* output flags */
	tcflag_t	c_cflag;	/* control flags */
	tcflag_t	c_lflag;	/* local flags */
	cc_t		c_cc[NCCS];	/* control chars */
	speed_t		c_ispeed;	/* input speed */
	speed_t		c_ospeed;	/* output speed */
};

#endif /* !_SYS_TERMIOS_H_ */
