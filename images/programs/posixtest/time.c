/*
 * posixtest groups timers and select: interval timers and signals that end a wait, CPU-time
 * accounting, and readiness of descriptors.
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "posixtest.h"

static volatile int nalrm, nvt, nprof, nusr;

static void onsig(int sig)
{
	if (sig == SIGALRM)
		nalrm++;
	else if (sig == SIGVTALRM)
		nvt++;
	else if (sig == SIGPROF)
		nprof++;
	else if (sig == SIGUSR1)
		nusr++;
}

static void catch(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = onsig;
	sigaction(sig, &sa, NULL);
}

static long usec_since(const struct timeval *t0)
{
	struct timeval t;

	gettimeofday(&t, NULL);
	return (t.tv_sec - t0->tv_sec) * 1000000L + (t.tv_usec - t0->tv_usec);
}

/* Spins until *flag becomes nonzero or limit iterations pass; returns the iterations left. */
static long spin(volatile int *flag, long limit)
{
	volatile long x = 0;

	while (!*flag && limit > 0) {
		x += limit;
		limit--;
	}
	return limit;
}

void group_timers(void)
{
	struct itimerval it, old;
	struct timeval t0;
	struct rusage ru;
	struct tms tm;
	sigset_t set, none;
	int ok, pid;
	long us;

	catch(SIGALRM);
	catch(SIGVTALRM);
	catch(SIGPROF);
	catch(SIGUSR1);
	memset(&it, 0, sizeof it);
	it.it_value.tv_sec = 0;
	it.it_value.tv_usec = 200000;
	gettimeofday(&t0, NULL);
	ok = setitimer(ITIMER_REAL, &it, NULL) == 0 && getitimer(ITIMER_REAL, &old) == 0;
	ok = ok && old.it_value.tv_sec == 0 && old.it_value.tv_usec > 0 && old.it_value.tv_usec <= 200000;
	ok = ok && old.it_interval.tv_sec == 0 && old.it_interval.tv_usec == 0;
	check("setitimer(ITIMER_REAL); getitimer reports the time left", ok, strerror(errno));
	nalrm = 0;
	ok = pause() < 0 && errno == EINTR && nalrm == 1;
	us = usec_since(&t0);
	check("pause returns EINTR after the SIGALRM handler", ok, strerror(errno));
	check("the timer fired no earlier than asked", us >= 200000, "too early");
	ok = getitimer(ITIMER_REAL, &old) == 0 && old.it_value.tv_sec == 0 && old.it_value.tv_usec == 0;
	check("a one-shot timer is disarmed after it fires", ok, "still armed");

	it.it_interval.tv_usec = 50000;
	it.it_value.tv_usec = 50000;
	nalrm = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	while (nalrm < 3)
		pause();
	memset(&it, 0, sizeof it);
	ok = setitimer(ITIMER_REAL, &it, &old) == 0 && old.it_interval.tv_usec == 50000;
	check("a periodic timer fires again and again; setitimer returns the old setting", ok, "wrong");

	ok = alarm(5) == 0 && alarm(0) == 5;
	check("alarm returns the seconds left on the previous alarm", ok, "wrong");
	errno = 0;
	ok = setitimer(7, &it, NULL) < 0 && errno == EINVAL;
	it.it_value.tv_usec = 1000000;
	errno = 0;
	ok = ok && setitimer(ITIMER_REAL, &it, NULL) < 0 && errno == EINVAL;
	check("setitimer errors: a bad timer, microseconds out of range", ok, strerror(errno));

	memset(&it, 0, sizeof it);
	it.it_value.tv_usec = 20000;
	nvt = 0;
	setitimer(ITIMER_VIRTUAL, &it, NULL);
	ok = spin(&nvt, 2000000000L) > 0 && nvt == 1;
	check("ITIMER_VIRTUAL counts user time: SIGVTALRM", ok, "no signal");
	nprof = 0;
	setitimer(ITIMER_PROF, &it, NULL);
	ok = spin(&nprof, 2000000000L) > 0 && nprof == 1;
	check("ITIMER_PROF counts CPU time: SIGPROF", ok, "no signal");

	it.it_value.tv_sec = 100;
	setitimer(ITIMER_VIRTUAL, &it, NULL);
	if ((pid = fork()) == 0) {
		getitimer(ITIMER_VIRTUAL, &old);
		_exit(old.it_value.tv_sec == 0 && old.it_value.tv_usec == 0 ? 0 : 1);
	}
	check("a child does not inherit interval timers", wait_exit(pid) == 0, "inherited");
	memset(&it, 0, sizeof it);
	setitimer(ITIMER_VIRTUAL, &it, NULL);

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	nusr = 0;
	if ((pid = fork()) == 0) {
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	sigemptyset(&none);
	ok = sigsuspend(&none) < 0 && errno == EINTR && nusr == 1;
	wait_exit(pid);
	sigprocmask(SIG_BLOCK, NULL, &set);
	ok = ok && sigismember(&set, SIGUSR1);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	check("sigsuspend waits for a blocked signal, runs its handler and restores the mask", ok, strerror(errno));

	ok = getrusage(RUSAGE_SELF, &ru) == 0 && ru.ru_utime.tv_sec + ru.ru_utime.tv_usec > 0;
	ok = ok && ru.ru_utime.tv_usec >= 0 && ru.ru_utime.tv_usec < 1000000;
	check("getrusage: the process has used user time", ok, strerror(errno));
	if ((pid = fork()) == 0) {
		volatile int never = 0;

		memset(&it, 0, sizeof it);
		it.it_value.tv_usec = 30000;
		nprof = 0;
		setitimer(ITIMER_PROF, &it, NULL);
		spin(&nprof, 2000000000L);
		(void)never;
		_exit(0);
	}
	wait_exit(pid);
	ok = getrusage(RUSAGE_CHILDREN, &ru) == 0 && ru.ru_utime.tv_sec * 1000000L + ru.ru_utime.tv_usec + ru.ru_stime.tv_sec * 1000000L + ru.ru_stime.tv_usec >= 20000;
	check("getrusage(RUSAGE_CHILDREN): the waited-for child's time", ok, "too little");
	errno = 0;
	ok = getrusage(5, &ru) < 0 && errno == EINVAL;
	check("getrusage of a bad who: EINVAL", ok, strerror(errno));
	ok = times(&tm) != (clock_t)-1 && tm.tms_cutime + tm.tms_cstime >= 2 && sysconf(_SC_CLK_TCK) == 100;
	check("times: the children's CPU time in clock ticks", ok, "wrong");
}

/* Sets SIGALRM to interrupt a wait without SA_RESTART. */
static void interrupting_alarm(long usec)
{
	struct itimerval it;

	memset(&it, 0, sizeof it);
	it.it_value.tv_usec = usec;
	catch(SIGALRM);
	setitimer(ITIMER_REAL, &it, NULL);
}

void group_select(void)
{
	struct pollfd pf[4];
	struct timeval tv, t0;
	fd_set rd, wr;
	int p[2], fd, n, ok, pid;
	char c;

	pipe(p);
	FD_ZERO(&rd);
	FD_ZERO(&wr);
	FD_SET(p[0], &rd);
	FD_SET(p[1], &wr);
	tv.tv_sec = tv.tv_usec = 0;
	n = select(p[1] + 1, &rd, &wr, NULL, &tv);
	ok = n == 1 && !FD_ISSET(p[0], &rd) && FD_ISSET(p[1], &wr);
	check("select: an empty pipe is writable, not readable", ok, strerror(errno));
	write(p[1], "x", 1);
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	n = select(p[0] + 1, &rd, NULL, NULL, &tv);
	check("select: a pipe with data is readable", n == 1 && FD_ISSET(p[0], &rd), strerror(errno));
	read(p[0], &c, 1);
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	tv.tv_sec = 0;
	tv.tv_usec = 100000;
	gettimeofday(&t0, NULL);
	n = select(p[0] + 1, &rd, NULL, NULL, &tv);
	ok = n == 0 && !FD_ISSET(p[0], &rd) && usec_since(&t0) >= 100000;
	check("select times out after the time asked, with empty sets", ok, strerror(errno));
	if ((pid = fork()) == 0) {
		struct timespec ts = { 0, 30000000 };

		nanosleep(&ts, NULL);
		write(p[1], "y", 1);
		_exit(0);
	}
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	n = select(p[0] + 1, &rd, NULL, NULL, NULL);
	check("select without a timeout waits for another process's write", n == 1 && FD_ISSET(p[0], &rd), strerror(errno));
	wait_exit(pid);
	read(p[0], &c, 1);

	fd = open("ps-f", O_RDWR | O_CREAT | O_TRUNC, 0644);
	FD_ZERO(&rd);
	FD_ZERO(&wr);
	FD_SET(fd, &rd);
	FD_SET(fd, &wr);
	tv.tv_sec = tv.tv_usec = 0;
	n = select(fd + 1, &rd, &wr, NULL, &tv);
	check("select: a file is readable and writable", n == 2 && FD_ISSET(fd, &rd) && FD_ISSET(fd, &wr), strerror(errno));
	FD_ZERO(&rd);
	FD_SET(fd + 10, &rd);
	errno = 0;
	ok = select(fd + 11, &rd, NULL, NULL, &tv) < 0 && errno == EBADF;
	check("select of a closed descriptor: EBADF", ok, strerror(errno));
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	interrupting_alarm(50000);
	errno = 0;
	ok = select(p[0] + 1, &rd, NULL, NULL, NULL) < 0 && errno == EINTR;
	check("a signal ends select with EINTR", ok, strerror(errno));

	pf[0].fd = p[0];
	pf[0].events = POLLIN;
	pf[1].fd = p[1];
	pf[1].events = POLLOUT;
	pf[2].fd = -1;
	pf[2].events = POLLIN;
	pf[3].fd = fd + 10;
	pf[3].events = POLLIN;
	n = poll(pf, 4, 0);
	ok = n == 2 && pf[0].revents == 0 && pf[1].revents == POLLOUT && pf[2].revents == 0 && pf[3].revents == POLLNVAL;
	check("poll: writable pipe, skipped negative fd, POLLNVAL for a closed one", ok, strerror(errno));
	write(p[1], "z", 1);
	n = poll(pf, 1, -1);
	check("poll: POLLIN with data", n == 1 && pf[0].revents == POLLIN, strerror(errno));
	read(p[0], &c, 1);
	gettimeofday(&t0, NULL);
	n = poll(pf, 1, 60);
	check("poll times out after the milliseconds asked", n == 0 && pf[0].revents == 0 && usec_since(&t0) >= 60000, strerror(errno));
	interrupting_alarm(50000);
	errno = 0;
	ok = poll(pf, 1, -1) < 0 && errno == EINTR;
	check("a signal ends poll with EINTR", ok, strerror(errno));
	close(p[1]);
	n = poll(pf, 1, 0);
	check("poll: POLLHUP once the writer is gone", n == 1 && (pf[0].revents & POLLHUP), strerror(errno));
	pf[0].fd = fd;
	pf[0].events = POLLIN | POLLOUT;
	n = poll(pf, 1, 0);
	check("poll: a file is readable and writable", n == 1 && pf[0].revents == (POLLIN | POLLOUT), strerror(errno));
	close(fd);
	close(p[0]);
	unlink("ps-f");
}
