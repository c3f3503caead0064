/*
 * Children of the shell: waiting for foreground commands and keeping the status of background
 * jobs. Every wait is for any child, so a background job that ends while the shell waits for a
 * foreground one is reaped at once and its status kept for a later `wait`.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sh.h"

struct job {
	long pid;
	int status;
	int done;
};

/* Background jobs not yet waited for by `wait` (done or running), in start order. */
static struct job *jobs;
static int njobs, capjobs;

#define MAXDONE 256	/* done jobs kept for `wait pid` before the oldest are forgotten */

int status_of(int ws)
{
	if (WIFEXITED(ws))
		return WEXITSTATUS(ws);
	if (WIFSIGNALED(ws))
		return 128 + WTERMSIG(ws);
	return 1;
}

static struct job *findjob(long pid)
{
	int i;

	for (i = 0; i < njobs; i++)
		if (jobs[i].pid == pid)
			return &jobs[i];
	return NULL;
}

static void removejob(struct job *j)
{
	int i = (int)(j - jobs);
	memmove(&jobs[i], &jobs[i + 1], sizeof *jobs * (size_t)(njobs - i - 1));
	njobs--;
}

/* A child that is not one waited for in the foreground: a background job. */
static void record(long pid, int ws)
{
	struct job *j = findjob(pid);

	if (j) {
		j->done = 1;
		j->status = status_of(ws);
	}
}

void jobs_add(long pid)
{
	int i, ndone = 0;

	for (i = 0; i < njobs; i++)
		ndone += jobs[i].done;
	for (i = 0; ndone > MAXDONE && i < njobs;) {
		if (jobs[i].done) {
			removejob(&jobs[i]);
			ndone--;
		} else
			i++;
	}
	if (njobs == capjobs) {
		struct job *n;
		capjobs = capjobs ? capjobs * 2 : 16;
		n = malloc(sizeof *n * (size_t)capjobs);
		if (n == NULL) {
			sh_error("out of memory");
			_exit(2);
		}
		if (njobs)
			memcpy(n, jobs, sizeof *n * (size_t)njobs);
		free(jobs);
		jobs = n;
	}
	jobs[njobs].pid = pid;
	jobs[njobs].done = 0;
	jobs[njobs].status = 0;
	njobs++;
}

/* In a forked child shell: the parent's jobs are not its children. */
void jobs_clear(void)
{
	njobs = 0;
}

void jobs_reap_nohang(void)
{
	int ws;
	pid_t pid;

	while ((pid = waitpid(-1, &ws, WNOHANG)) > 0)
		record((long)pid, ws);
}

/*
 * Waits until every pid in pids (a foreground pipeline; -1 entries are ignored) has ended.
 * Returns the status of the last one.
 */
int jobs_wait_for(const long *pids, int n)
{
	int remaining = 0, laststat = 127, i;

	for (i = 0; i < n; i++)
		remaining += pids[i] > 0;
	while (remaining > 0) {
		int ws;
		pid_t pid = waitpid(-1, &ws, 0);

		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;	/* ECHILD: nothing left to wait for */
		}
		for (i = 0; i < n; i++)
			if (pids[i] == (long)pid)
				break;
		if (i == n) {
			record((long)pid, ws);
			continue;
		}
		remaining--;
		if (i == n - 1)
			laststat = status_of(ws);
	}
	return laststat;
}

/* Blocks until background job j has ended. */
static void waitjob(struct job *j)
{
	long pid = j->pid;

	while (!j->done) {
		int ws;
		pid_t p = waitpid(-1, &ws, 0);
		if (p < 0) {
			if (errno == EINTR)
				continue;
			j->done = 1;
			j->status = 127;
			return;
		}
		record((long)p, ws);
		j = findjob(pid);
	}
}

/*
 * wait: with no operand, waits for every background job and returns 0; with pids, waits for each
 * and returns the status of the last (127 for a pid that is not a job of this shell).
 */
int builtin_wait(char **argv)
{
	int status = 0;

	if (argv[1] == NULL) {
		while (njobs > 0) {
			waitjob(&jobs[0]);
			removejob(&jobs[0]);
		}
		return 0;
	}
	for (argv++; *argv; argv++) {
		char *end;
		long pid = strtol(*argv, &end, 10);
		struct job *j;

		if (*end != '\0' || end == *argv) {
			sh_error("wait: %s: not a process id", *argv);
			status = 2;
			continue;
		}
		j = findjob(pid);
		if (j == NULL) {
			sh_error("wait: pid %ld is not a child of this shell", pid);
			status = 127;
			continue;
		}
		waitjob(j);
		j = findjob(pid);
		status = j->status;
		removejob(j);
	}
	return status;
}
