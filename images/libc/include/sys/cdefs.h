/* Compiler glue shared by every header (after 4.4BSD <sys/cdefs.h>). */
#ifndef _SYS_CDEFS_H_
#define _SYS_CDEFS_H_

#define __BEGIN_DECLS
#define __END_DECLS
#define __dead2 __attribute__((__noreturn__))
#define __pure2 __attribute__((__const__))
#define __unused __attribute__((__unused__))
#define __printflike(fmtarg, firstvararg) __attribute__((__format__(__printf__, fmtarg, firstvararg)))
#define __scanflike(fmtarg, firstvararg) __attribute__((__format__(__scanf__, fmtarg, firstvararg)))
#define __aligned(x) __attribute__((__aligned__(x)))

#endif /* !_SYS_CDEFS_H_ */
