/*
 * The exec family over execve (4.4BSD lib/libc/gen/exec.c): execv and execl* use the current
 * environment or the one given; execvp and execlp search PATH for a name without a slash.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <unistd.h>

/* PATH when the environment has none (4.4BSD _PATH_DEFPATH). */
#define DEFPATH	"/usr/bin:/bin"

int
execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

static const char *
envpath(void)
{
	char **e;

	if (environ)
		for (e = environ; *e; e++)
			if ((*e)[0] == 'P' && (*e)[1] == 'A' && (*e)[2] == 'T' && (*e)[3] == 'H' && (*e)[4] == '=')
				return *e + 5;
	return DEFPATH;
}

/* A file that is not an executable image is a shell script: run it with /bin/sh. */
static int
execsh(const char *path, char *const argv[])
{
	int argc;

	for (argc = 0; argv[argc]; argc++)
		;
	{
		char *nargv[argc + 2];
		int i;

		nargv[0] = "sh";
		nargv[1] = (char *)path;
		for (i = 1; i <= argc; i++)
			nargv[i + 1] = argv[i];
		return execve("/bin/sh", nargv, environ);
	}
}

int
execvp(const char *file, char *const argv[])
{
	char buf[PATH_MAX];
	const char *p, *dir;
	size_t dlen, flen, i;
	int eacces = 0;

	if (*file == '\0') {
		errno = ENOENT;
		return -1;
	}
	for (p = file; *p; p++)
		if (*p == '/') {
			execve(file, argv, environ);
			if (errno == ENOEXEC)
				execsh(file, argv);
			return -1;
		}
	flen = p - file;
	for (p = envpath(); ; p++) {
		/* An empty PATH element means the current directory. */
		for (dir = p; *p && *p != ':'; p++)
			;
		dlen = p - dir;
		if (dlen == 0) {
			dir = ".";
			dlen = 1;
		}
		if (dlen + 1 + flen + 1 <= sizeof buf) {
			for (i = 0; i < dlen; i++)
				buf[i] = dir[i];
			buf[dlen] = '/';
			for (i = 0; i <= flen; i++)
				buf[dlen + 1 + i] = file[i];
			execve(buf, argv, environ);
			switch (errno) {
			case ENOEXEC:
				execsh(buf, argv);
				return -1;
			case EACCES:
				eacces = 1;
				break;
			case ENOENT:
			case ENOTDIR:
			case ENAMETOOLONG:
				break;
			default:
				return -1;
			}
		}
		if (*p == '\0')
			break;
	}
	errno = eacces ? EACCES : ENOENT;
	return -1;
}

/* Collects the NULL-terminated list after arg0 into an argv array on the stack. */
#define EXECL_BODY(call)						\
	va_list ap;							\
	int argc = 1;							\
									\
	va_start(ap, arg0);						\
	while (va_arg(ap, char *) != 0)					\
		argc++;							\
	va_end(ap);							\
	{								\
		char *argv[argc + 1];					\
		int i;							\
									\
		va_start(ap, arg0);					\
		argv[0] = (char *)arg0;					\
		for (i = 1; i <= argc; i++)				\
			argv[i] = va_arg(ap, char *);			\
		call;							\
	}

int
execl(const char *path, const char *arg0, ...)
{
	EXECL_BODY(va_end(ap); return execve(path, argv, environ))
}

int
execlp(const char *file, const char *arg0, ...)
{
	EXECL_BODY(va_end(ap); return execvp(file, argv))
}

/* execle(path, arg0, ..., NULL, envp) */
int
execle(const char *path, const char *arg0, ...)
{
	EXECL_BODY(char **envp = va_arg(ap, char **); va_end(ap); return execve(path, argv, envp))
}
