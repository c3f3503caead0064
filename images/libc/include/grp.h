/* The group file (POSIX.1 <grp.h>): /etc/group, one group a line, "name:password:gid:user,user". */
#ifndef _GRP_H_
#define _GRP_H_

#include <sys/cdefs.h>
#include <sys/types.h>

struct group {
	char	*gr_name;	/* group name */
	char	*gr_passwd;	/* group password */
	gid_t	 gr_gid;	/* group id */
	char	**gr_mem;	/* member names, NULL-terminated */
};

__BEGIN_DECLS
struct group	*getgrnam(const char *);
struct group	*getgrgid(gid_t);
struct group	*getgrent(void);
void		 setgrent(void);
void		 endgrent(void);
__END_DECLS

#endif /* !_GRP_H_ */
