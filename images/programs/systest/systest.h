/*
 * systest: a self-checking test of the guest runtime's kernel-facing half (syscall layer, crt0,
 * signals, setjmp, compiler support). Every check prints one line "<name>: ok" or
 * "<name>: FAILED (...)"; values that differ between systems (pids, addresses, times, errno
 * numbers, signal numbers) are never printed, only facts derived from them. The output is the
 * same for a host-native build (glibc) and for the guest builds, which is what makes it a test.
 * Output goes through write(2) only, so that the test depends on nothing but the layer it tests.
 */
#ifndef SYSTEST_H
#define SYSTEST_H

#include <stdarg.h>

/* Formatted output to stdout: %s %c %d %u %x %lld %llu %llx, no width or flags. */
void	outf(const char *fmt, ...);
/* Prints "name: ok" or "name: FAILED (why)", and counts failures. */
void	check(const char *name, int ok, const char *why);
/*
 * Like check, for a call expected to fail with errno e. The macro evaluates the call before it
 * reads errno (the order of a function's arguments is unspecified).
 */
void	check_errno(const char *name, int failed, int err, int e);
#define CHECK_ERRNO(name, failed, e)					\
	do {								\
		int failed_ = (failed);					\
		check_errno((name), failed_, errno, (e));		\
	} while (0)
/* The symbolic name of an errno value or a signal, for output that is the same on every system. */
const char *errname(int e);
const char *signame(int sig);
/* check() of a system call's success, naming errno on failure (read after the call). */
#define CHECK_SYS(name, ok)						\
	do {								\
		int ok_ = (ok);						\
		check((name), ok_, errname(errno));			\
	} while (0)
extern int failures;

/* Sections (one file each). */
void	t_files(void);
void	t_dirs(void);
void	t_pipes(void);
void	t_procs(void);
void	t_signals(void);
void	t_jumps(void);
void	t_memory(void);
void	t_exec(const char *self);
void	t_arith(void);
int	exec_child(int argc, char **argv);

#endif
