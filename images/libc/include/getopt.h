/* Long options (the GNU getopt_long interface; getopt itself is in <unistd.h>). */
#ifndef _GETOPT_H_
#define _GETOPT_H_

#include <sys/cdefs.h>
#include <unistd.h>

#define no_argument		0
#define required_argument	1
#define optional_argument	2

struct option {
	const char *name;	/* the long option's name, without "--" */
	int	 has_arg;	/* no_argument, required_argument or optional_argument */
	int	*flag;		/* NULL: getopt_long returns val; else *flag = val and it returns 0 */
	int	 val;
};

__BEGIN_DECLS
int	getopt_long(int, char *const[], const char *, const struct option *, int *);
int	getopt_long_only(int, char *const[], const char *, const struct option *, int *);
__END_DECLS

#endif /* !_GETOPT_H_ */
