/*
 * systest: execve. The child execs this same program (found through PATH, as a guest program
 * is) in "exec-child" mode with its own environment; the exec'd image reports through its exit
 * status what it received: argv, the environment, an inherited descriptor, and a close-on-exec
 * descriptor that must be gone.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "systest.h"

#define VAR	"SYSTEST_VAR=from the parent"

int
exec_child(int argc, char **argv)
{
	char **e;
	int status = 0, found = 0;

	if (argc != 5 || strcmp(argv[2], "two words") != 0 || strcmp(argv[4], "last") != 0)
		status |= 1;
	for (e = environ; *e; e++)
		if (strcmp(*e, VAR) == 0)
			found = 1;
	if (!found)
		status |= 2;
	if (fcntl(10, F_GETFD) != 0)
		status |= 4;		/* the inherited descriptor must be open */
	if (fcntl(11, F_GETFD) != -1 || errno != EBADF)
		status |= 8;		/* the close-on-exec one must be closed */
	if (argv[3][0] != 'x' || argv[3][1] != '\0')
		status |= 16;
	if (strcmp(argv[0], "systest") != 0)
		status |= 32;		/* argv[0] as the parent gave it, not the path */
	return status;
}

void
t_exec(const char *self)
{
	char *argv[] = { "systest", "exec-child", "two words", "x", "last", 0 };
	char *nenv[64];
	int status, fd, n;
	pid_t pid;
	char **e;

	(void)self;
	outf("== exec\n");
	fd = open("st_exec", O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if ((pid = fork()) == 0) {
		dup2(fd, 10);
		dup2(fd, 11);
		fcntl(11, F_SETFD, FD_CLOEXEC);
		/* This process's environment plus one variable (so PATH and EMU_QEMU carry over). */
		for (n = 0, e = environ; *e && n < 62; e++)
			nenv[n++] = *e;
		nenv[n++] = VAR;
		nenv[n] = 0;
		environ = nenv;
		execvp("systest", argv);
		_exit(100 + (errno == ENOENT));
	}
	close(fd);
	waitpid(pid, &status, 0);
	outf("exec'd child status: %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	check("execvp through PATH runs the program", WIFEXITED(status) && WEXITSTATUS(status) < 100, 0);
	check("the new image got argv, environment and descriptors", WIFEXITED(status) && WEXITSTATUS(status) == 0, 0);
	unlink("st_exec");

	CHECK_ERRNO("execvp of a missing program", execvp("systest-no-such-program", argv) < 0, ENOENT);
	fd = open("st_notelf", O_WRONLY | O_CREAT | O_TRUNC, 0755);
	write(fd, "\1\2\3\4 not an executable image\n", 30);
	close(fd);
	CHECK_ERRNO("execve of a file that is not an image", execve("./st_notelf", argv, environ) < 0, ENOEXEC);
	chmod("st_notelf", 0644);
	CHECK_ERRNO("execve of a file without execute permission", execve("./st_notelf", argv, environ) < 0, EACCES);
	unlink("st_notelf");
	CHECK_ERRNO("execve of a missing file", execve("./st_missing", argv, environ) < 0, ENOENT);
}
