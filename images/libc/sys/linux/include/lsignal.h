/* Signal-number and signal-set translation between 4.4BSD and Linux (sigxlat.c; private to libc). */
#ifndef _LSIGNAL_H_
#define _LSIGNAL_H_

#include <signal.h>
#include <linux_struct.h>

/* 0 when the signal has no counterpart on the other side. */
int	__sig_to_linux(int sig);
int	__sig_from_linux(int lsig);
void	__sigset_to_linux(sigset_t set, linux_sigset_t *lset);
sigset_t __sigset_from_linux(const linux_sigset_t *lset);

#endif /* !_LSIGNAL_H_ */
