/* system: runs a command with /bin/sh -c and waits for it; the wait status is returned. */
#include <errno.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int system(const char *command)
{
  if (command == NULL) return access("/bin/sh", X_OK) == 0;
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    char *argv[] = { "sh", "-c", (char *)command, NULL };
    execve("/bin/sh", argv, environ);
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return status;
}
