/* systest's output helpers and the main program. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "systest.h"

int failures;

static char obuf[512];
static int olen;

static void
flush(void)
{
	int off = 0, n;

	while (off < olen) {
		n = write(STDOUT_FILENO, obuf + off, olen - off);
		if (n <= 0)
			_exit(3);
		off += n;
	}
	olen = 0;
}

static void
putch(char c)
{
	if (olen == sizeof obuf)
		flush();
	obuf[olen++] = c;
}

static void
putu64(unsigned long long v, unsigned base)
{
	char d[24];
	int n = 0;

	do {
		d[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (n)
		putch(d[--n]);
}

void
outf(const char *fmt, ...)
{
	va_list ap;
	const char *s;
	long long v;

	va_start(ap, fmt);
	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			putch(*fmt);
			continue;
		}
		switch (*++fmt) {
		case 's':
			for (s = va_arg(ap, const char *); *s; s++)
				putch(*s);
			break;
		case 'c':
			putch((char)va_arg(ap, int));
			break;
		case 'd':
			v = va_arg(ap, int);
			if (v < 0) {
				putch('-');
				v = -v;
			}
			putu64((unsigned long long)v, 10);
			break;
		case 'u':
			putu64(va_arg(ap, unsigned), 10);
			break;
		case 'x':
			putu64(va_arg(ap, unsigned), 16);
			break;
		case 'l':	/* ll[dux] */
			fmt += 2;
			if (*fmt == 'd') {
				v = va_arg(ap, long long);
				if (v < 0) {
					putch('-');
					putu64(-(unsigned long long)v, 10);
				} else
					putu64((unsigned long long)v, 10);
			} else
				putu64(va_arg(ap, unsigned long long), *fmt == 'x' ? 16 : 10);
			break;
		default:
			putch('%');
			putch(*fmt);
		}
	}
	va_end(ap);
	/* Flush at each line end, so that output before a fork is not written twice. */
	if (olen && obuf[olen - 1] == '\n')
		flush();
}

void
check(const char *name, int ok, const char *why)
{
	if (ok)
		outf("%s: ok\n", name);
	else {
		failures++;
		outf("%s: FAILED (%s)\n", name, why ? why : "");
	}
}

void
check_errno(const char *name, int failed, int err, int e)
{
	if (failed && err == e)
		outf("%s: ok\n", name);
	else {
		failures++;
		if (failed)
			outf("%s: FAILED (errno %s, expected %s)\n", name, errname(err), errname(e));
		else
			outf("%s: FAILED (succeeded, expected %s)\n", name, errname(e));
	}
}

const char *
errname(int e)
{
	static const struct {
		int e;
		const char *name;
	} t[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { ESRCH, "ESRCH" }, { EINTR, "EINTR" },
		{ EIO, "EIO" }, { ENXIO, "ENXIO" }, { E2BIG, "E2BIG" }, { ENOEXEC, "ENOEXEC" },
		{ EBADF, "EBADF" }, { ECHILD, "ECHILD" }, { EDEADLK, "EDEADLK" }, { ENOMEM, "ENOMEM" },
		{ EACCES, "EACCES" }, { EFAULT, "EFAULT" }, { EBUSY, "EBUSY" }, { EEXIST, "EEXIST" },
		{ EXDEV, "EXDEV" }, { ENODEV, "ENODEV" }, { ENOTDIR, "ENOTDIR" }, { EISDIR, "EISDIR" },
		{ EINVAL, "EINVAL" }, { ENFILE, "ENFILE" }, { EMFILE, "EMFILE" }, { ENOTTY, "ENOTTY" },
		{ EFBIG, "EFBIG" }, { ENOSPC, "ENOSPC" }, { ESPIPE, "ESPIPE" }, { EROFS, "EROFS" },
		{ EPIPE, "EPIPE" }, { EDOM, "EDOM" }, { ERANGE, "ERANGE" }, { EAGAIN, "EAGAIN" },
		{ ENAMETOOLONG, "ENAMETOOLONG" }, { ENOTEMPTY, "ENOTEMPTY" }, { ENOSYS, "ENOSYS" },
		{ ELOOP, "ELOOP" },
	};
	static char other[16];
	unsigned i;
	int n = e, k = 0;
	char d[12];

	for (i = 0; i < sizeof t / sizeof t[0]; i++)
		if (t[i].e == e)
			return t[i].name;
	memcpy(other, "errno ", 6);
	do
		d[k++] = '0' + n % 10;
	while ((n /= 10) > 0 && k < 10);
	for (i = 0; k; i++)
		other[6 + i] = d[--k];
	other[6 + i] = '\0';
	return other;
}

const char *
signame(int sig)
{
	static const struct {
		int sig;
		const char *name;
	} t[] = {
		{ SIGHUP, "SIGHUP" }, { SIGINT, "SIGINT" }, { SIGQUIT, "SIGQUIT" }, { SIGILL, "SIGILL" },
		{ SIGTRAP, "SIGTRAP" }, { SIGABRT, "SIGABRT" }, { SIGFPE, "SIGFPE" }, { SIGKILL, "SIGKILL" },
		{ SIGBUS, "SIGBUS" }, { SIGSEGV, "SIGSEGV" }, { SIGSYS, "SIGSYS" }, { SIGPIPE, "SIGPIPE" },
		{ SIGALRM, "SIGALRM" }, { SIGTERM, "SIGTERM" }, { SIGSTOP, "SIGSTOP" }, { SIGCHLD, "SIGCHLD" },
		{ SIGUSR1, "SIGUSR1" }, { SIGUSR2, "SIGUSR2" },
	};
	unsigned i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++)
		if (t[i].sig == sig)
			return t[i].name;
	return "other signal";
}

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "exec-child") == 0)
		return exec_child(argc, argv);
	umask(022);
	t_files();
	t_dirs();
	t_pipes();
	t_procs();
	t_signals();
	t_jumps();
	t_memory();
	t_exec(argv[0]);
	t_arith();
	outf("failures: %d\n", failures);
	return failures != 0;
}
