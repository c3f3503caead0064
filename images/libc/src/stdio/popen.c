/*
 * popen and pclose (POSIX.1): a stream connected by a pipe to `/bin/sh -c command`, reading its
 * standard output ("r") or writing its standard input ("w"). The child closes the streams of
 * earlier popen calls that are still open, so that their readers see end of file; pclose waits
 * for the command and returns its wait status.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static struct pid {
  struct pid *next;
  FILE *fp;
  pid_t pid;
} *pids;

FILE *popen(const char *command, const char *mode)
{
  int p[2], reading = mode[0] == 'r';
  if ((mode[0] != 'r' && mode[0] != 'w') || (mode[1] != '\0' && !(mode[1] == 'e' && mode[2] == '\0'))) {
    errno = EINVAL;
    return NULL;
  }
  struct pid *cur = malloc(sizeof *cur);
  if (cur == NULL) return NULL;
  if (pipe(p) < 0) {
    free(cur);
    return NULL;
  }
  pid_t pid = fork();
  if (pid < 0) {
    close(p[0]);
    close(p[1]);
    free(cur);
    return NULL;
  }
  if (pid == 0) {
    for (struct pid *q = pids; q; q = q->next) close(fileno(q->fp));
    /* The child's end becomes its standard output (reading) or input (writing). */
    int mine = reading ? p[1] : p[0], want = reading ? 1 : 0;
    close(reading ? p[0] : p[1]);
    if (mine != want) {
      dup2(mine, want);
      close(mine);
    }
    execl("/bin/sh", "sh", "-c", command, (char *)NULL);
    _exit(127);
  }
  FILE *fp;
  if (reading) {
    close(p[1]);
    fp = fdopen(p[0], "r");
  } else {
    close(p[0]);
    fp = fdopen(p[1], "w");
  }
  if (mode[1] == 'e') fcntl(fileno(fp), F_SETFD, FD_CLOEXEC);
  cur->fp = fp;
  cur->pid = pid;
  cur->next = pids;
  pids = cur;
  return fp;
}

int pclose(FILE *fp)
{
  struct pid **pp, *cur;
  for (pp = &pids; (cur = *pp) != NULL && cur->fp != fp; pp = &cur->next)
    ;
  if (cur == NULL) {
    errno = ECHILD;
    return -1;
  }
  *pp = cur->next;
  fclose(fp);
  int status;
  pid_t r;
  while ((r = waitpid(cur->pid, &status, 0)) < 0 && errno == EINTR)
    ;
  free(cur);
  return r < 0 ? -1 : status;
}
