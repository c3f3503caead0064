/*
 * Linux sparc32 mmap flags, from the Linux UAPI headers, for the Linux flavour's mmap;
 * test/images/linux_abi.test.ts checks them against the installed headers.
 */
#ifndef _LINUX_MMAN_H_
#define _LINUX_MMAN_H_

#define LINUX_PROT_READ		0x1
#define LINUX_PROT_WRITE	0x2
#define LINUX_PROT_EXEC		0x4
#define LINUX_MAP_SHARED	0x01
#define LINUX_MAP_PRIVATE	0x02
#define LINUX_MAP_FIXED		0x10
#define LINUX_MAP_ANONYMOUS	0x20

#endif /* !_LINUX_MMAN_H_ */
