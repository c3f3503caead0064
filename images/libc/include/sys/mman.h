/*
 * Memory mapping (4.4BSD <sys/mman.h>): anonymous memory, private or shared with fork children,
 * and private copies of files. The kernel refuses MAP_SHARED of a file (EINVAL); see
 * docs/kernel.md. The Linux flavour translates the flags.
 */
#ifndef _SYS_MMAN_H_
#define _SYS_MMAN_H_

#include <sys/cdefs.h>
#include <sys/types.h>

#define PROT_NONE	0x00	/* no permissions */
#define PROT_READ	0x01	/* pages can be read */
#define PROT_WRITE	0x02	/* pages can be written */
#define PROT_EXEC	0x04	/* pages can be executed */

#define MAP_SHARED	0x0001	/* share changes */
#define MAP_PRIVATE	0x0002	/* changes are private */
#define MAP_FIXED	0x0010	/* map addr exactly, replacing what was there */
#define MAP_FILE	0x0000	/* map from a file (the default) */
#define MAP_ANON	0x1000	/* anonymous memory, zero-filled; fd ignored */
#define MAP_ANONYMOUS	MAP_ANON

#define MAP_FAILED	((void *)-1)

__BEGIN_DECLS
void	*mmap(void *, size_t, int, int, int, off_t);
int	 munmap(void *, size_t);
int	 mprotect(void *, size_t, int);
__END_DECLS

#endif /* !_SYS_MMAN_H_ */
