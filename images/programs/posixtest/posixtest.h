/* posixtest: shared declarations of the groups (see main.c). */
#ifndef POSIXTEST_H
#define POSIXTEST_H

#include <errno.h>
#include <string.h>

/* Prints "<what>: ok" or "<what>: FAILED: <why>" and counts it. */
void check(const char *what, int ok, const char *why);
/* check() with strerror(errno) as the reason. */
#define CHECK(what, ok)	check((what), (ok), strerror(errno))

/* Writes n bytes of s to a new file (mode 0644); 0 or -1. */
int put_file(const char *path, const char *s, int n);
/* Waits for pid and returns its exit status, or -1 when it did not exit normally. */
int wait_exit(int pid);

void group_links(void);
void group_attrs(void);
void group_io(void);
void group_locks(void);
void group_flock(void);
void group_mmap(void);
void group_timers(void);
void group_select(void);

#endif
