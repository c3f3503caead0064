/* Terminal ioctls (4.4BSD <sys/ttycom.h>), the subset the guest system uses. */
#ifndef _SYS_TTYCOM_H_
#define _SYS_TTYCOM_H_

#include <sys/ioccom.h>
#include <sys/termios.h>

/* Window/terminal size structure. */
struct winsize {
	unsigned short	ws_row;		/* rows, in characters */
	unsigned short	ws_col;		/* columns, in characters */
	unsigned short	ws_xpixel;	/* horizontal size, pixels */
	unsigned short	ws_ypixel;	/* vertical size, pixels */
};

#define TIOCGETA	_IOR('t', 19, struct termios)	/* get termios struct */
#define TIOCSETA	_IOW('t', 20, struct termios)	/* set termios struct */
#define TIOCSETAW	_IOW('t', 21, struct termios)	/* drain output, set */
#define TIOCSETAF	_IOW('t', 22, struct termios)	/* drn out, fls in, set */
#define TIOCSWINSZ	_IOW('t', 103, struct winsize)	/* set window size */
#define TIOCGWINSZ	_IOR('t', 104, struct winsize)	/* get window size */
#define TIOCSPGRP	_IOW('t', 118, int)		/* set pgrp of tty */
#define TIOCGPGRP	_IOR('t', 119, int)		/* get pgrp of tty */

#endif /* !_SYS_TTYCOM_H_ */
