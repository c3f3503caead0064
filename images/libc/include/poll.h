/* poll (FreeBSD <poll.h>; 4.4BSD-Lite had only select). */
#ifndef _POLL_H_
#define _POLL_H_

#include <sys/cdefs.h>

struct pollfd {
	int	fd;		/* descriptor; negative: skipped */
	short	events;		/* events of interest */
	short	revents;	/* events that happened */
};

typedef unsigned int nfds_t;

#define POLLIN		0x0001	/* data to read (or end of file) */
#define POLLPRI		0x0002	/* urgent data to read */
#define POLLOUT		0x0004	/* writing will not block */
#define POLLERR		0x0008	/* an error condition (always reported) */
#define POLLHUP		0x0010	/* the other end hung up (always reported) */
#define POLLNVAL	0x0020	/* fd is not open (always reported) */
#define POLLRDNORM	0x0040	/* normal data to read */
#define POLLRDBAND	0x0080	/* priority data to read */
#define POLLWRNORM	POLLOUT	/* writing normal data will not block */
#define POLLWRBAND	0x0100	/* writing priority data will not block */

#define INFTIM		(-1)	/* wait for ever */

__BEGIN_DECLS
int	poll(struct pollfd *, nfds_t, int);
__END_DECLS

#endif /* !_POLL_H_ */
