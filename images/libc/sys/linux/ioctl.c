/*
 * ioctl for the Linux flavour. The request codes of <sys/ioctl.h> are 4.4BSD's; each is mapped
 * to its Linux request. FIONREAD, FIONBIO, FIOCLEX, FIONCLEX, TIOCGWINSZ/TIOCSWINSZ and
 * TIOCGPGRP/TIOCSPGRP take the same argument in both systems; TIOCGETA and TIOCSETA* convert
 * struct termios (the flags and control characters of <sys/termios.h>, and the speed). Other
 * requests fail with ENOTTY, as for a device that does not know them.
 */
#include <errno.h>
#include <lsys.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <linux_struct.h>
#include <linux_termios.h>

struct flagmap {
	tcflag_t bsd;
	uint32_t lnx;
};

static const struct flagmap iflags[] = {
	{ IGNBRK, LINUX_IGNBRK }, { BRKINT, LINUX_BRKINT }, { IGNPAR, LINUX_IGNPAR },
	{ PARMRK, LINUX_PARMRK }, { INPCK, LINUX_INPCK }, { ISTRIP, LINUX_ISTRIP },
	{ INLCR, LINUX_INLCR }, { IGNCR, LINUX_IGNCR }, { ICRNL, LINUX_ICRNL },
	{ IXON, LINUX_IXON }, { IXOFF, LINUX_IXOFF }, { 0, 0 },
};
static const struct flagmap oflags[] = {
	{ OPOST, LINUX_OPOST }, { ONLCR, LINUX_ONLCR }, { 0, 0 },
};
static const struct flagmap cflags[] = {
	{ CSTOPB, LINUX_CSTOPB }, { CREAD, LINUX_CREAD }, { PARENB, LINUX_PARENB },
	{ PARODD, LINUX_PARODD }, { HUPCL, LINUX_HUPCL }, { CLOCAL, LINUX_CLOCAL }, { 0, 0 },
};
static const struct flagmap lflags[] = {
	{ ECHOE, LINUX_ECHOE }, { ECHOK, LINUX_ECHOK }, { ECHO, LINUX_ECHO },
	{ ECHONL, LINUX_ECHONL }, { ISIG, LINUX_ISIG }, { ICANON, LINUX_ICANON },
	{ IEXTEN, LINUX_IEXTEN }, { TOSTOP, LINUX_TOSTOP }, { NOFLSH, LINUX_NOFLSH }, { 0, 0 },
};
static const struct flagmap csizes[] = {
	{ CS5, LINUX_CS5 }, { CS6, LINUX_CS6 }, { CS7, LINUX_CS7 }, { CS8, LINUX_CS8 },
};
/* c_cc indices that exist in both; VMIN/VTIME are handled apart (SPARC shares them with VEOF/VEOL). */
static const struct {
	int bsd, lnx;
} ccs[] = {
	{ VEOF, LINUX_VEOF }, { VEOL, LINUX_VEOL }, { VERASE, LINUX_VERASE }, { VKILL, LINUX_VKILL },
	{ VINTR, LINUX_VINTR }, { VQUIT, LINUX_VQUIT }, { VSUSP, LINUX_VSUSP },
	{ VSTART, LINUX_VSTART }, { VSTOP, LINUX_VSTOP },
};
/* Linux speed codes B0..B38400 are 0..15 in CBAUD. */
static const speed_t speeds[16] = {
	0, 50, 75, 110, 134, 150, 200, 300, 600, 1200, 1800, 2400, 4800, 9600, 19200, 38400,
};

static uint32_t
to_linux(tcflag_t f, const struct flagmap *m)
{
	uint32_t l = 0;

	for (; m->bsd; m++)
		if (f & m->bsd)
			l |= m->lnx;
	return l;
}

static tcflag_t
from_linux(uint32_t l, const struct flagmap *m)
{
	tcflag_t f = 0;

	for (; m->bsd; m++)
		if (l & m->lnx)
			f |= m->bsd;
	return f;
}

static void
termios_from_linux(const struct linux_termios *l, struct termios *t)
{
	unsigned i;
	int icanon = (l->c_lflag & LINUX_ICANON) != 0;

	t->c_iflag = from_linux(l->c_iflag, iflags);
	t->c_oflag = from_linux(l->c_oflag, oflags);
	t->c_cflag = from_linux(l->c_cflag, cflags);
	for (i = 0; i < sizeof csizes / sizeof csizes[0]; i++)
		if ((l->c_cflag & LINUX_CSIZE) == csizes[i].lnx)
			t->c_cflag |= csizes[i].bsd;
	t->c_lflag = from_linux(l->c_lflag, lflags);
	for (i = 0; i < NCCS; i++)
		t->c_cc[i] = 0;
	for (i = 0; i < sizeof ccs / sizeof ccs[0]; i++)
		t->c_cc[ccs[i].bsd] = l->c_cc[ccs[i].lnx];
	if (LINUX_VMIN == LINUX_VEOF && icanon) {
		t->c_cc[VMIN] = 1;
		t->c_cc[VTIME] = 0;
	} else {
		t->c_cc[VMIN] = l->c_cc[LINUX_VMIN];
		t->c_cc[VTIME] = l->c_cc[LINUX_VTIME];
	}
	if (LINUX_VMIN == LINUX_VEOF && !icanon) {
		t->c_cc[VEOF] = 4;	/* ^D, the conventional value the shared slot hides */
		t->c_cc[VEOL] = 0;
	}
	t->c_ispeed = t->c_ospeed = (l->c_cflag & LINUX_CBAUD) < 16 ? speeds[l->c_cflag & LINUX_CBAUD] : 0;
}

static void
termios_to_linux(const struct termios *t, struct linux_termios *l)
{
	unsigned i, code = 0;

	l->c_iflag = to_linux(t->c_iflag, iflags);
	l->c_oflag = to_linux(t->c_oflag, oflags);
	l->c_cflag = to_linux(t->c_cflag, cflags);
	for (i = 0; i < sizeof csizes / sizeof csizes[0]; i++)
		if ((t->c_cflag & CSIZE) == csizes[i].bsd)
			l->c_cflag |= csizes[i].lnx;
	for (i = 0; i < 16; i++)
		if (speeds[i] == t->c_ospeed)
			code = i;
	l->c_cflag |= code;
	l->c_lflag = to_linux(t->c_lflag, lflags);
	l->c_line = 0;
	for (i = 0; i < LINUX_TERMIOS_NCCS; i++)
		l->c_cc[i] = 0;
	for (i = 0; i < sizeof ccs / sizeof ccs[0]; i++)
		l->c_cc[ccs[i].lnx] = t->c_cc[ccs[i].bsd];
	if (LINUX_VMIN != LINUX_VEOF || !(t->c_lflag & ICANON)) {
		l->c_cc[LINUX_VMIN] = t->c_cc[VMIN];
		l->c_cc[LINUX_VTIME] = t->c_cc[VTIME];
	}
}

int
ioctl(int fd, unsigned long request, ...)
{
	struct linux_termios lt;
	unsigned long lreq;
	va_list ap;
	void *arg;
	long r;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	switch (request) {
	case FIONREAD:		lreq = LINUX_FIONREAD; break;
	case FIONBIO:		lreq = LINUX_FIONBIO; break;
	case FIOCLEX:		lreq = LINUX_FIOCLEX; break;
	case FIONCLEX:		lreq = LINUX_FIONCLEX; break;
	case TIOCGWINSZ:	lreq = LINUX_TIOCGWINSZ; break;
	case TIOCSWINSZ:	lreq = LINUX_TIOCSWINSZ; break;
	case TIOCGPGRP:		lreq = LINUX_TIOCGPGRP; break;
	case TIOCSPGRP:		lreq = LINUX_TIOCSPGRP; break;
	case TIOCGETA:
		r = __lsys3(LNR_ioctl, fd, LINUX_TCGETS, &lt);
		if (__lsys_failed(r))
			return __lsys_ret(r);
		termios_from_linux(&lt, arg);
		return 0;
	case TIOCSETA:
	case TIOCSETAW:
	case TIOCSETAF:
		termios_to_linux(arg, &lt);
		lreq = request == TIOCSETA ? LINUX_TCSETS :
		    request == TIOCSETAW ? LINUX_TCSETSW : LINUX_TCSETSF;
		return __lsys_ret(__lsys3(LNR_ioctl, fd, lreq, &lt));
	default:
		errno = ENOTTY;
		return -1;
	}
	return __lsys_ret(__lsys3(LNR_ioctl, fd, lreq, arg));
}
