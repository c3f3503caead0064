/* Directory streams over getdirentries(2) (4.4BSD <dirent.h>). */
#ifndef _DIRENT_H_
#define _DIRENT_H_

#include <sys/cdefs.h>
#include <sys/types.h>
#include <sys/dirent.h>

typedef struct _dirdesc DIR;

__BEGIN_DECLS
DIR	*opendir(const char *);
struct dirent *readdir(DIR *);
void	 rewinddir(DIR *);
int	 closedir(DIR *);
int	 dirfd(DIR *);
int	 getdirentries(int, char *, int, long *);
__END_DECLS

#endif /* !_DIRENT_H_ */
