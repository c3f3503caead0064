/*
 * basename and dirname (POSIX.1 <libgen.h>): the last component of a path and the path of its
 * directory, trailing slashes ignored. Both may write into the path given; the results ".", "/"
 * and "//" are constant strings. A path that starts with exactly two slashes keeps them as its
 * root directory (POSIX leaves "//" to the implementation; glibc keeps it too).
 */
#include <libgen.h>
#include <string.h>

char *
basename(char *path)
{
	char *end, *start;

	if (path == NULL || *path == '\0')
		return ".";
	end = path + strlen(path) - 1;
	while (end > path && *end == '/')
		end--;
	if (*end == '/')
		return "/";
	end[1] = '\0';
	for (start = end; start > path && start[-1] != '/'; start--)
		;
	return start;
}

char *
dirname(char *path)
{
	char *end;

	if (path == NULL || *path == '\0')
		return ".";
	end = path + strlen(path) - 1;
	while (end > path && *end == '/')	/* trailing slashes */
		end--;
	while (end > path && *end != '/')	/* the last component */
		end--;
	if (*end != '/')
		return ".";
	while (end > path && *end == '/')	/* the slashes before it */
		end--;
	if (end == path && *end == '/')
		return path[1] == '/' && path[2] != '/' ? "//" : "/";
	end[1] = '\0';
	return path;
}
