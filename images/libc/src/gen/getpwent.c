/*
 * getpwnam, getpwuid, getpwent, setpwent, endpwent and their group-file counterparts, reading
 * /etc/passwd and /etc/group line by line (no databases). A malformed line is skipped. The
 * structures returned live until the next call of the same family.
 */
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_PW	1024
#define MAX_MEMBERS	64

/* Splits line at ':' into at most n fields; returns the number of fields. */
static int
split(char *line, char **f, int n)
{
	int i = 0;

	line[strcspn(line, "\n")] = '\0';
	f[i++] = line;
	while (i < n && (line = strchr(line, ':')) != NULL) {
		*line++ = '\0';
		f[i++] = line;
	}
	return i;
}

/* A decimal id; -1 when the text is not one. */
static long
id(const char *s)
{
	char *end;
	long v;

	if (*s == '\0')
		return -1;
	v = strtol(s, &end, 10);
	return *end == '\0' && v >= 0 ? v : -1;
}

static FILE *pwf;
static char pwline[LINE_MAX_PW];
static struct passwd pw;

void
setpwent(void)
{
	if (pwf)
		rewind(pwf);
}

void
endpwent(void)
{
	if (pwf)
		fclose(pwf);
	pwf = NULL;
}

/* The next well-formed entry of fp, in pw. */
static struct passwd *
pwread(FILE *fp)
{
	char *f[7];

	while (fgets(pwline, sizeof pwline, fp) != NULL) {
		if (split(pwline, f, 7) != 7 || id(f[2]) < 0 || id(f[3]) < 0)
			continue;
		pw.pw_name = f[0];
		pw.pw_passwd = f[1];
		pw.pw_uid = (uid_t)id(f[2]);
		pw.pw_gid = (gid_t)id(f[3]);
		pw.pw_gecos = f[4];
		pw.pw_dir = f[5];
		pw.pw_shell = f[6];
		return &pw;
	}
	return NULL;
}

struct passwd *
getpwent(void)
{
	if (pwf == NULL && (pwf = fopen("/etc/passwd", "r")) == NULL)
		return NULL;
	return pwread(pwf);
}

/*
 * The first user named name (or, name NULL, with uid), from a reading of its own that leaves
 * getpwent's position alone.
 */
static struct passwd *
pwscan(const char *name, uid_t uid)
{
	FILE *f = fopen("/etc/passwd", "r");
	struct passwd *p = NULL;

	if (f == NULL)
		return NULL;
	while ((p = pwread(f)) != NULL)
		if (name ? strcmp(p->pw_name, name) == 0 : p->pw_uid == uid)
			break;
	fclose(f);
	return p;
}

struct passwd *
getpwnam(const char *name)
{
	return pwscan(name, 0);
}

struct passwd *
getpwuid(uid_t uid)
{
	return pwscan(NULL, uid);
}

static FILE *grf;
static char grline[LINE_MAX_PW];
static char *members[MAX_MEMBERS + 1];
static struct group gr;

void
setgrent(void)
{
	if (grf)
		rewind(grf);
}

void
endgrent(void)
{
	if (grf)
		fclose(grf);
	grf = NULL;
}

/* The next well-formed entry of fp, in gr. */
static struct group *
grread(FILE *fp)
{
	char *f[4], *m;
	int n;

	while (fgets(grline, sizeof grline, fp) != NULL) {
		if (split(grline, f, 4) != 4 || id(f[2]) < 0)
			continue;
		gr.gr_name = f[0];
		gr.gr_passwd = f[1];
		gr.gr_gid = (gid_t)id(f[2]);
		n = 0;
		for (m = f[3]; *m && n < MAX_MEMBERS; ) {
			members[n++] = m;
			m += strcspn(m, ",");
			if (*m)
				*m++ = '\0';
		}
		members[n] = NULL;
		gr.gr_mem = members;
		return &gr;
	}
	return NULL;
}

struct group *
getgrent(void)
{
	if (grf == NULL && (grf = fopen("/etc/group", "r")) == NULL)
		return NULL;
	return grread(grf);
}

static struct group *
grscan(const char *name, gid_t gid)
{
	FILE *f = fopen("/etc/group", "r");
	struct group *g = NULL;

	if (f == NULL)
		return NULL;
	while ((g = grread(f)) != NULL)
		if (name ? strcmp(g->gr_name, name) == 0 : g->gr_gid == gid)
			break;
	fclose(f);
	return g;
}

struct group *
getgrnam(const char *name)
{
	return grscan(name, 0);
}

struct group *
getgrgid(gid_t gid)
{
	return grscan(NULL, gid);
}
