/*
 * pmake: a fork-heavy parallel make-like driver.
 *
 *   pmake [-j n] command ...                each argument is a job (named 1, 2, ...)
 *   pmake [-j n] -f spec [target ...]       jobs from a makefile-like spec ("-": standard input)
 *
 * At most n jobs (default 2) run at once. A job is a forked child of pmake with its standard
 * output and error in a file of its own and standard input from /dev/null; it writes
 * "[name] command" before running each of its commands, in order, stopping at the first that
 * fails. Commands are split into words at blanks ('...' "..." and \ quote) and found on PATH;
 * there is no shell in between (write `sh -c '...'` for pipelines or redirections). A job of
 * one command execs it in place; a job of several forks a child for each.
 *
 * Whatever order jobs finish in, pmake prints them in job order: each job's captured output,
 * then "[name] exit <status>" (or "[name] killed by signal <n>", or "[name] skipped" when a
 * job it depends on failed; a command that is not found ends its job with status 127), then at the
 * end "pmake: <n> jobs, <m> failed, <k> skipped". Exit status 0 if every job succeeded, else 1;
 * 2 for a usage or spec error.
 *
 * Spec files:
 *     # a comment
 *     all: compile test          a target, a colon, the targets it depends on
 *     compile:
 *     <blank or tab>cc1 x.c      command lines of the target above, indented
 * A job runs after every job it depends on has succeeded; targets are names of jobs, not
 * files (everything needed runs). The goals are the targets named after the spec, or else the
 * first target, with everything they depend on; jobs are numbered and printed in the order
 * they appear in the spec. Targets without commands print nothing.
 *
 * Captured output goes to $TMPDIR/pmake.<pid>.<job> (TMPDIR defaults to /tmp), removed once
 * printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

enum { WAITING, RUNNING, DONE, SKIPPED };

struct job {
	char *name;
	char **cmds;		/* command lines */
	int ncmds;
	char **depnames;
	int *deps;		/* indexes of the jobs depended on */
	int ndeps;
	int needed;
	int state;
	int status;		/* wait status once DONE */
	pid_t pid;
	char outfile[256];
	int mark;		/* cycle detection */
};

static struct job *jobs;
static int njobs, capjobs;
static const char *specname;

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (p == NULL) {
		fprintf(stderr, "pmake: out of memory\n");
		exit(2);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	return strcpy(xmalloc(strlen(s) + 1), s);
}

static void push(char ***v, int *n, char *s)
{
	char **nv = xmalloc(sizeof *nv * (size_t)(*n + 2));
	if (*n)
		memcpy(nv, *v, sizeof *nv * (size_t)*n);
	free(*v);
	nv[(*n)++] = s;
	nv[*n] = NULL;
	*v = nv;
}

static struct job *newjob(const char *name)
{
	struct job *j;

	if (njobs == capjobs) {
		struct job *n;
		capjobs = capjobs ? capjobs * 2 : 16;
		n = xmalloc(sizeof *n * (size_t)capjobs);
		if (njobs)
			memcpy(n, jobs, sizeof *n * (size_t)njobs);
		free(jobs);
		jobs = n;
	}
	j = &jobs[njobs++];
	memset(j, 0, sizeof *j);
	j->name = xstrdup(name);
	return j;
}

static int findjob(const char *name)
{
	int i;

	for (i = 0; i < njobs; i++)
		if (strcmp(jobs[i].name, name) == 0)
			return i;
	return -1;
}

static void specerror(int line, const char *msg, const char *arg)
{
	if (line > 0)
		fprintf(stderr, "pmake: %s:%d: %s%s\n", specname, line, msg, arg);
	else
		fprintf(stderr, "pmake: %s: %s%s\n", specname, msg, arg);
	exit(2);
}

static int isblank_(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Splits s at blanks into words (in place), honouring '...', "..." and \. */
static char **split(char *s, int *n)
{
	char **v = NULL;
	char *out = s;

	*n = 0;
	for (;;) {
		char *word, q = 0;
		while (isblank_((unsigned char)*s))
			s++;
		if (*s == '\0')
			break;
		word = out;
		for (; *s && (q || !isblank_((unsigned char)*s)); s++) {
			if (q) {
				if (*s == q)
					q = 0;
				else if (*s == '\\' && q == '"' && (s[1] == '"' || s[1] == '\\'))
					*out++ = *++s;
				else
					*out++ = *s;
			} else if (*s == '\'' || *s == '"')
				q = *s;
			else if (*s == '\\' && s[1])
				*out++ = *++s;
			else
				*out++ = *s;
		}
		if (*s)
			s++;
		*out++ = '\0';
		push(&v, n, word);
	}
	if (v == NULL) {
		v = xmalloc(sizeof *v);
		v[0] = NULL;
	}
	return v;
}

static void read_spec(const char *path)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char line[1024];
	struct job *cur = NULL;
	int lineno = 0;

	specname = strcmp(path, "-") == 0 ? "(stdin)" : path;
	if (f == NULL)
		specerror(0, "cannot open", "");
	while (fgets(line, sizeof line, f)) {
		char *p = line, *colon;
		size_t len = strlen(line);

		lineno++;
		if (len == sizeof line - 1 && line[len - 1] != '\n')
			specerror(lineno, "line too long", "");
		while (len > 0 && isblank_((unsigned char)line[len - 1]))
			line[--len] = '\0';
		while (isblank_((unsigned char)*p))
			p++;
		if (*p == '\0' || *p == '#')
			continue;
		if (p != line) {
			if (cur == NULL)
				specerror(lineno, "command outside a target: ", p);
			push(&cur->cmds, &cur->ncmds, xstrdup(p));
			continue;
		}
		colon = strchr(p, ':');
		if (colon == NULL)
			specerror(lineno, "expected 'target: dependencies', got: ", p);
		*colon = '\0';
		{
			int n, i;
			char **w = split(p, &n);
			if (n != 1)
				specerror(lineno, "a target must be one word: ", p);
			if (findjob(w[0]) >= 0)
				specerror(lineno, "target defined twice: ", w[0]);
			cur = newjob(w[0]);
			free(w);
			w = split(colon + 1, &n);
			for (i = 0; i < n; i++)
				push(&cur->depnames, &cur->ndeps, xstrdup(w[i]));
			free(w);
		}
	}
	if (f != stdin)
		fclose(f);
	if (njobs == 0)
		specerror(0, "no targets", "");
}

static void need(int i)
{
	struct job *j = &jobs[i];
	int k;

	if (j->mark == 1)
		specerror(0, "dependency cycle through ", j->name);
	if (j->needed)
		return;
	j->mark = 1;
	j->deps = xmalloc(sizeof *j->deps * (size_t)j->ndeps);
	for (k = 0; k < j->ndeps; k++) {
		int d = findjob(j->depnames[k]);
		if (d < 0) {
			fprintf(stderr, "pmake: %s: %s depends on unknown target %s\n", specname, j->name, j->depnames[k]);
			exit(2);
		}
		j->deps[k] = d;
		need(d);
	}
	j->mark = 0;
	j->needed = 1;
}

/* In the job's child process: runs its commands with output into its file. Never returns. */
static void run_job(struct job *j)
{
	int fd = open(j->outfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int i;

	if (fd < 0) {
		fprintf(stderr, "pmake: cannot create %s\n", j->outfile);
		_exit(126);
	}
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
	fd = open("/dev/null", O_RDONLY);
	if (fd > 0) {
		dup2(fd, 0);
		close(fd);
	}
	for (i = 0; i < j->ncmds; i++) {
		char *line = xstrdup(j->cmds[i]);
		int n, ws;
		char **argv;
		pid_t pid = 0;

		printf("[%s] %s\n", j->name, j->cmds[i]);
		fflush(stdout);
		argv = split(line, &n);
		if (n == 0)
			continue;
		if (i + 1 < j->ncmds && (pid = fork()) < 0) {
			printf("pmake: cannot fork\n");
			_exit(126);
		}
		if (pid == 0) {
			execvp(argv[0], argv);
			if (errno == ENOENT || errno == ENOTDIR) {
				printf("pmake: %s: not found\n", argv[0]);
				fflush(stdout);
				_exit(127);
			}
			printf("pmake: %s: cannot execute\n", argv[0]);
			fflush(stdout);
			_exit(126);
		}
		while (waitpid(pid, &ws, 0) < 0)
			if (errno != EINTR)
				_exit(126);
		if (WIFSIGNALED(ws))
			_exit(128 + WTERMSIG(ws));
		if (WEXITSTATUS(ws) != 0)
			_exit(WEXITSTATUS(ws));
	}
	_exit(0);
}

static int job_ok(const struct job *j)
{
	return j->state == DONE && WIFEXITED(j->status) && WEXITSTATUS(j->status) == 0;
}

static void copyout(const char *path)
{
	char buf[8192];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return;
	while ((n = read(fd, buf, sizeof buf)) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	close(fd);
	unlink(path);
}

/* Prints the finished jobs that come next in job order. */
static void print_ready(int *next)
{
	while (*next < njobs) {
		struct job *j = &jobs[*next];
		if (!j->needed || j->ncmds == 0) {
			(*next)++;
			continue;
		}
		if (j->state == SKIPPED)
			printf("[%s] skipped\n", j->name);
		else if (j->state == DONE) {
			copyout(j->outfile);
			if (WIFSIGNALED(j->status))
				printf("[%s] killed by signal %d\n", j->name, WTERMSIG(j->status));
			else
				printf("[%s] exit %d\n", j->name, WEXITSTATUS(j->status));
		} else
			return;
		(*next)++;
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: pmake [-j n] command ...\n       pmake [-j n] -f spec [target ...]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *spec = NULL, *tmpdir = getenv("TMPDIR");
	int maxjobs = 2, running = 0, nextprint = 0, i, failed = 0, skipped = 0, total = 0;
	long mypid = (long)getpid();

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-j") == 0 && i + 1 < argc)
			maxjobs = atoi(argv[++i]);
		else if (strncmp(argv[i], "-j", 2) == 0 && argv[i][2])
			maxjobs = atoi(argv[i] + 2);
		else if (strcmp(argv[i], "-f") == 0 && i + 1 < argc)
			spec = argv[++i];
		else
			usage();
	}
	if (maxjobs < 1)
		usage();
	if (spec) {
		read_spec(spec);
		if (i == argc)
			need(0);
		for (; i < argc; i++) {
			int g = findjob(argv[i]);
			if (g < 0)
				specerror(0, "no such target: ", argv[i]);
			need(g);
		}
	} else {
		if (i == argc)
			usage();
		for (; i < argc; i++) {
			char name[16];
			struct job *j;
			snprintf(name, sizeof name, "%d", njobs + 1);
			j = newjob(name);
			push(&j->cmds, &j->ncmds, argv[i]);
			j->needed = 1;
		}
	}
	if (tmpdir == NULL || *tmpdir == '\0')
		tmpdir = "/tmp";
	for (i = 0; i < njobs; i++)
		snprintf(jobs[i].outfile, sizeof jobs[i].outfile, "%s/pmake.%ld.%d", tmpdir, mypid, i + 1);

	for (;;) {
		int progress = 1, pending = 0, ws;
		pid_t pid;

		/* settle jobs whose dependencies are decided, start ready ones in job order */
		while (progress) {
			progress = 0;
			for (i = 0; i < njobs; i++) {
				struct job *j = &jobs[i];
				int k, ready = 1, bad = 0;
				if (!j->needed || j->state != WAITING)
					continue;
				for (k = 0; k < j->ndeps; k++) {
					struct job *d = &jobs[j->deps[k]];
					if (d->state == SKIPPED || (d->state == DONE && !job_ok(d)))
						bad = 1;
					else if (d->state != DONE)
						ready = 0;
				}
				if (bad) {
					j->state = SKIPPED;
					progress = 1;
				} else if (ready && j->ncmds == 0) {
					j->state = DONE;
					j->status = 0;
					progress = 1;
				} else if (ready && running < maxjobs) {
					fflush(stdout);
					j->pid = fork();
					if (j->pid < 0) {
						fprintf(stderr, "pmake: cannot fork\n");
						exit(2);
					}
					if (j->pid == 0)
						run_job(j);
					j->state = RUNNING;
					running++;
				}
			}
		}
		print_ready(&nextprint);
		for (i = 0; i < njobs; i++)
			if (jobs[i].needed && (jobs[i].state == WAITING || jobs[i].state == RUNNING))
				pending++;
		if (pending == 0)
			break;
		pid = wait(&ws);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "pmake: lost track of jobs\n");
			exit(2);
		}
		for (i = 0; i < njobs; i++)
			if (jobs[i].state == RUNNING && jobs[i].pid == pid) {
				jobs[i].state = DONE;
				jobs[i].status = ws;
				running--;
			}
	}
	for (i = 0; i < njobs; i++) {
		if (!jobs[i].needed || jobs[i].ncmds == 0)
			continue;
		total++;
		if (jobs[i].state == SKIPPED)
			skipped++;
		else if (!job_ok(&jobs[i]))
			failed++;
	}
	printf("pmake: %d jobs, %d failed, %d skipped\n", total, failed, skipped);
	return failed || skipped ? 1 : 0;
}
