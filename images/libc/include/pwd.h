/*
 * The password file (POSIX.1 <pwd.h>, 4.4BSD's struct without its shadow fields): /etc/passwd,
 * one user a line, "name:password:uid:gid:gecos:home:shell".
 */
#ifndef _PWD_H_
#define _PWD_H_

#include <sys/cdefs.h>
#include <sys/types.h>

struct passwd {
	char	*pw_name;	/* user name */
	char	*pw_passwd;	/* encrypted password ("*": none) */
	uid_t	 pw_uid;	/* user id */
	gid_t	 pw_gid;	/* group id */
	char	*pw_gecos;	/* full name and the like */
	char	*pw_dir;	/* home directory */
	char	*pw_shell;	/* login shell */
};

__BEGIN_DECLS
struct passwd	*getpwnam(const char *);
struct passwd	*getpwuid(uid_t);
struct passwd	*getpwent(void);
void		 setpwent(void);
void		 endpwent(void);
__END_DECLS

#endif /* !_PWD_H_ */
