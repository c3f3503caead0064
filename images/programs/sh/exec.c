/*
 * Running parsed commands: lists, and-or lists, pipelines, simple commands and redirections.
 *
 * Processes: a foreground simple command that is not a builtin runs in one forked child; each
 * command of a pipeline runs in its own child (builtins included) connected by pipes; a
 * background and-or list runs in a forked child shell. A child shell that will exit after a
 * command (flag EV_EXIT) execs an external command in place instead of forking again.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#include "sh.h"

extern char **environ;


/* A descriptor saved while a builtin runs with redirections (copy -1: it was closed). */
struct saved {
	int fd, copy;
	struct saved *next;
};

/* A duplicate of fd numbered 10 or above (out of the way of redirections), or -1 if fd is closed. */
static int dup_high(int fd)
{
	int low[10], nlow = 0, d;

	while ((d = dup(fd)) >= 0 && d < 10)
		low[nlow++] = d;
	while (nlow > 0)
		close(low[--nlow]);
	return d;
}

static int parse_fd(const char *s)
{
	int n = 0;

	if (*s == '\0')
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || n > 1000)
			return -1;
		n = n * 10 + (*s - '0');
	}
	return n;
}

/*
 * Applies redirections in order. With save, records how to undo them (builtins in the shell
 * process). Returns 1, or 0 after reporting the first that failed.
 */
static int apply_redirs(struct redir *r, struct saved **save)
{
	for (; r; r = r->next) {
		char *target = expand_string(r->word);
		int fd = -1;

		if (save) {
			struct saved *s = stalloc(sizeof *s);
			s->fd = r->fd;
			s->copy = dup_high(r->fd);
			s->next = *save;
			*save = s;
		}
		switch (r->kind) {
		case R_IN:
			fd = open(target, O_RDONLY);
			break;
		case R_OUT:
			fd = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0666);
			break;
		case R_APPEND:
			fd = open(target, O_WRONLY | O_CREAT | O_APPEND, 0666);
			break;
		default:
			if (strcmp(target, "-") == 0) {
				close(r->fd);
				continue;
			}
			fd = parse_fd(target);
			if (fd < 0 || dup2(fd, r->fd) < 0) {
				sh_error("%s: bad file descriptor", target);
				return 0;
			}
			continue;
		}
		if (fd < 0) {
			sh_error("%s: cannot %s", target, r->kind == R_IN ? "open" : "create");
			return 0;
		}
		if (fd != r->fd) {
			dup2(fd, r->fd);
			close(fd);
		}
	}
	return 1;
}

static void restore_redirs(struct saved *s)
{
	for (; s; s = s->next) {
		if (s->copy >= 0) {
			dup2(s->copy, s->fd);
			close(s->copy);
		} else
			close(s->fd);
	}
}

void run_subshell_exit(int status)
{
	_exit(status);
}

/* In the current process: apply redirections, set the environment and exec. Never returns. */
static void exec_command(char **argv, char **assigns, int nassign, struct redir *redirs)
{
	if (!apply_redirs(redirs, NULL))
		run_subshell_exit(1);
	environ = var_environ(assigns, nassign);
	execvp(argv[0], argv);
	if (errno == ENOENT || errno == ENOTDIR) {
		sh_error("%s: not found", argv[0]);
		run_subshell_exit(127);
	}
	sh_error("%s: cannot execute", argv[0]);
	run_subshell_exit(126);
}

static void set_assignments(struct strvec *assigns)
{
	int i;

	for (i = 0; i < assigns->n; i++) {
		char *eq = strchr(assigns->v[i], '=');
		*eq = '\0';
		var_set(assigns->v[i], eq + 1, 0);
		*eq = '=';
	}
}

/* The current values of the variables an assignment list sets (NULL entries: unset). */
static char **save_assignments(struct strvec *assigns)
{
	char **old = stalloc(sizeof *old * (size_t)(assigns->n + 1));
	int i;

	for (i = 0; i < assigns->n; i++) {
		char *eq = strchr(assigns->v[i], '=');
		const char *v;
		*eq = '\0';
		v = var_get(assigns->v[i]);
		old[i] = v ? ststrdup(v) : NULL;
		*eq = '=';
	}
	return old;
}

static void restore_assignments(struct strvec *assigns, char **old)
{
	int i;

	for (i = assigns->n - 1; i >= 0; i--) {
		char *eq = strchr(assigns->v[i], '=');
		*eq = '\0';
		if (old[i])
			var_set(assigns->v[i], old[i], 0);
		else
			var_unset(assigns->v[i]);
		*eq = '=';
	}
}

static int run_simple(struct command *c, int flags)
{
	struct strvec args, assigns;
	struct saved *save = NULL;
	builtin_fn fn;
	int i, status, special;

	sv_init(&args);
	sv_init(&assigns);
	for (i = 0; i < c->nassign; i++) {
		char *eq = strchr(c->words[i], '=');
		char *value = expand_string(eq + 1);
		struct sbuf b;
		char *p;

		sb_init(&b);
		for (p = c->words[i]; p <= eq; p++)
			sb_putc(&b, *p);
		sb_puts(&b, value);
		sv_push(&assigns, sb_finish(&b));
	}
	for (; i < c->nwords; i++)
		expand_fields(c->words[i], &args);

	if (args.n == 0) {
		/* assignments are the shell's; redirections alone are made and undone */
		set_assignments(&assigns);
		status = apply_redirs(c->redirs, &save) ? 0 : 1;
		restore_redirs(save);
	} else if (strcmp(args.v[0], "exec") == 0) {
		if (args.n > 1)
			exec_command(args.v + 1, assigns.v, assigns.n, c->redirs);
		/* exec with redirections only: they stay in effect for the shell */
		set_assignments(&assigns);
		status = apply_redirs(c->redirs, NULL) ? 0 : 1;
	} else if ((fn = builtin_lookup(args.v[0], &special)) != NULL) {
		/* builtins run in the shell; assignments stay for special ones, else are undone */
		char **old = special ? NULL : save_assignments(&assigns);
		set_assignments(&assigns);
		status = apply_redirs(c->redirs, &save) ? fn(args.v) : 1;
		restore_redirs(save);
		if (old)
			restore_assignments(&assigns, old);
	} else {
		if (!(flags & EV_EXIT)) {
			long pid = fork();
			if (pid < 0) {
				sh_error("fork failed");
				return 2;
			}
			if (pid > 0)
				return jobs_wait_for(&pid, 1);
			jobs_clear();
		}
		exec_command(args.v, assigns.v, assigns.n, c->redirs);
	}
	if (flags & EV_EXIT)
		run_subshell_exit(status);
	return status;
}

static int run_pipeline(struct pipeline *p, int flags)
{
	long *pids;
	int status, i, prevread = -1;

	if (p->ncmds == 1) {
		status = run_simple(p->cmds[0], p->negate ? flags & ~EV_EXIT : flags);
		return p->negate ? !status : status;
	}
	pids = stalloc(sizeof *pids * (size_t)p->ncmds);
	for (i = 0; i < p->ncmds; i++) {
		int fds[2] = { -1, -1 };
		long pid;

		if (i + 1 < p->ncmds && pipe(fds) < 0) {
			sh_error("cannot make a pipe");
			pids[i] = -1;
			break;
		}
		pid = fork();
		if (pid == 0) {
			jobs_clear();
			if (prevread >= 0 && prevread != 0) {
				dup2(prevread, 0);
				close(prevread);
			}
			if (fds[1] >= 0) {
				close(fds[0]);
				if (fds[1] != 1) {
					dup2(fds[1], 1);
					close(fds[1]);
				}
			}
			run_simple(p->cmds[i], EV_EXIT);
		}
		if (pid < 0)
			sh_error("fork failed");
		pids[i] = pid;
		if (prevread >= 0)
			close(prevread);
		if (fds[1] >= 0)
			close(fds[1]);
		prevread = fds[0];
	}
	if (prevread >= 0)
		close(prevread);
	for (; i < p->ncmds; i++)
		pids[i] = -1;
	status = jobs_wait_for(pids, p->ncmds);
	if (p->negate)
		status = !status;
	if (flags & EV_EXIT)
		run_subshell_exit(status);
	return status;
}

/* Runs an and-or list: each pipeline after && runs only if the status so far is 0, after ||
 * only if it is not. */
static int run_andor(struct andor *a, int flags)
{
	int status = run_pipeline(a->p, a->next ? 0 : flags);

	laststatus = status;
	while (a->next) {
		int op = a->op;
		a = a->next;
		if ((op == AO_AND) == (status == 0)) {
			status = run_pipeline(a->p, a->next ? 0 : flags);
			laststatus = status;
		}
	}
	if (flags & EV_EXIT)
		run_subshell_exit(status);
	return status;
}

int run_list(struct list *l)
{
	for (; l; l = l->next) {
		if (!l->background) {
			laststatus = run_andor(l->ao, 0);
			continue;
		}
		long pid = fork();
		if (pid == 0) {
			/* POSIX: without job control, a background list's input is /dev/null */
			int fd = open("/dev/null", O_RDONLY);
			jobs_clear();
			if (fd > 0) {
				dup2(fd, 0);
				close(fd);
			}
			run_andor(l->ao, EV_EXIT);
		}
		if (pid < 0) {
			sh_error("fork failed");
			laststatus = 2;
			continue;
		}
		jobs_add(pid);
		lastbgpid = pid;
		laststatus = 0;
	}
	return laststatus;
}
