/*
 * init: process 1 of emu's kernel; the machine runs as long as it does.
 *
 *   init               runs "sh /etc/rc"
 *   init -c command    runs "sh -c command" instead (a workload given on the kernel's command
 *                      line, and how the tests run init as an ordinary process)
 *
 * 1. Descriptors 0, 1 and 2 that are not open are opened on /dev/console (read-write), so the
 *    shell and everything it starts inherit the console as standard input, output and error.
 * 2. The environment is the one init was given, plus PATH=/bin:/sbin:/usr/bin and HOME=/ when
 *    those are not set. sh is found through that PATH (so /bin/sh on a boot image).
 * 3. init then waits for any child, again and again. As process 1 it is the parent of every
 *    orphan (4.4BSD reparents the children of an exiting process to init), so this reaps them all;
 *    it also records the status of the rc shell when that one ends.
 * 4. When wait reports that no child is left (ECHILD) and the rc shell has ended, init exits with
 *    the rc shell's status (its exit code, or 128+n if signal n killed it), so the status of the
 *    whole machine is the workload's. If sh cannot be started init exits with 127.
 *
 * init prints nothing on success. On the native oracle build (host glibc on Linux) it makes
 * itself the "child subreaper" so that orphans come to it there too and the same tests hold.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__linux__) && defined(__GLIBC__)
#include <sys/prctl.h>
#endif

#define CONSOLE "/dev/console"
#define RC "/etc/rc"
#define DEFPATH "PATH=/bin:/sbin:/usr/bin"
#define DEFHOME "HOME=/"

extern char **environ;

static void say(const char *a, const char *b)
{
	fputs("init: ", stderr);
	fputs(a, stderr);
	fputs(b, stderr);
	fputc('\n', stderr);
}

static int hasvar(char **env, const char *name)
{
	size_t n = strlen(name);

	for (; *env; env++)
		if (strncmp(*env, name, n) == 0 && (*env)[n] == '=')
			return 1;
	return 0;
}

/* The shell's environment: init's own plus the defaults it lacks. */
static char **shell_environ(void)
{
	size_t n = 0;
	char **env;

	while (environ && environ[n])
		n++;
	env = malloc(sizeof *env * (n + 3));
	if (env == NULL)
		return environ;
	if (n)
		memcpy(env, environ, sizeof *env * n);
	env[n] = NULL;
	if (!hasvar(env, "PATH")) {
		env[n++] = DEFPATH;
		env[n] = NULL;
	}
	if (!hasvar(env, "HOME")) {
		env[n++] = DEFHOME;
		env[n] = NULL;
	}
	return env;
}

int main(int argc, char **argv)
{
	char *shargv[4];
	pid_t rcpid, pid;
	int fd, ws, rcstatus = 127, rcdone = 0;

	/* open() returns the lowest free descriptor: this fills whichever of 0, 1, 2 are closed */
	while ((fd = open(CONSOLE, O_RDWR)) >= 0 && fd <= 2)
		;
	if (fd > 2)
		close(fd);

	shargv[0] = "sh";
	if (argc == 1) {
		shargv[1] = RC;
		shargv[2] = NULL;
	} else if (argc == 3 && strcmp(argv[1], "-c") == 0) {
		shargv[1] = "-c";
		shargv[2] = argv[2];
		shargv[3] = NULL;
	} else {
		say("usage: init [-c command]", "");
		return 2;
	}

#if defined(__linux__) && defined(__GLIBC__) && defined(PR_SET_CHILD_SUBREAPER)
	if (getpid() != 1)
		prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#endif

	fflush(NULL);
	rcpid = fork();
	if (rcpid < 0) {
		say("cannot fork", "");
		return 127;
	}
	if (rcpid == 0) {
		environ = shell_environ();
		execvp(shargv[0], shargv);
		say("cannot execute ", shargv[0]);
		_exit(127);
	}

	for (;;) {
		pid = wait(&ws);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;	/* ECHILD: no child left */
		}
		if (pid == rcpid) {
			rcdone = 1;
			if (WIFEXITED(ws))
				rcstatus = WEXITSTATUS(ws);
			else if (WIFSIGNALED(ws))
				rcstatus = 128 + WTERMSIG(ws);
		}
	}
	if (!rcdone)
		say("lost the rc shell", "");
	return rcstatus;
}
