/*
 * Signal descriptions: sys_siglist and sys_signame (4.4BSD), strsignal (POSIX.1-2008) and
 * psignal. The descriptions are worded as glibc words them (so that output is the same under
 * emu and on a Linux host); SIGINFO, which Linux lacks, keeps 4.4BSD's.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

const char *const sys_siglist[NSIG] = {
  "Signal 0",
  "Hangup",
  "Interrupt",
  "Quit",
  "Illegal instruction",
  "Trace/breakpoint trap",
  "Aborted",
  "EMT trap",
  "Floating point exception",
  "Killed",
  "Bus error",
  "Segmentation fault",
  "Bad system call",
  "Broken pipe",
  "Alarm clock",
  "Terminated",
  "Urgent I/O condition",
  "Stopped (signal)",
  "Stopped",
  "Continued",
  "Child exited",
  "Stopped (tty input)",
  "Stopped (tty output)",
  "I/O possible",
  "CPU time limit exceeded",
  "File size limit exceeded",
  "Virtual timer expired",
  "Profiling timer expired",
  "Window changed",
  "Information request",
  "User defined signal 1",
  "User defined signal 2",
};

const char *const sys_signame[NSIG] = {
  "Signal 0", "hup", "int", "quit", "ill", "trap", "abrt", "emt", "fpe", "kill", "bus", "segv",
  "sys", "pipe", "alrm", "term", "urg", "stop", "tstp", "cont", "chld", "ttin", "ttou", "io",
  "xcpu", "xfsz", "vtalrm", "prof", "winch", "info", "usr1", "usr2",
};

char *strsignal(int sig)
{
  static char buf[32];
  if (sig > 0 && sig < NSIG) return (char *)sys_siglist[sig];
  snprintf(buf, sizeof buf, "Unknown signal %d", sig);
  return buf;
}

void psignal(int sig, const char *s)
{
  const char *d = sig > 0 && sig < NSIG ? sys_siglist[sig] : "Unknown signal";
  if (s && *s) fprintf(stderr, "%s: %s\n", s, d);
  else fprintf(stderr, "%s\n", d);
}
