/*
 * Linux sparc32 open/fcntl flags, from the Linux UAPI asm/ headers, for the Linux flavour's
 * translations; test/images/linux_abi.test.ts checks them against the installed headers.
 */
#ifndef _LINUX_FCNTL_H_
#define _LINUX_FCNTL_H_

#define LINUX_O_ACCMODE		3
#define LINUX_O_RDONLY		0
#define LINUX_O_WRONLY		1
#define LINUX_O_RDWR		2
#define LINUX_O_NONBLOCK	0x4000
#define LINUX_O_APPEND		8
#define LINUX_O_CREAT		0x200
#define LINUX_O_TRUNC		0x400
#define LINUX_O_EXCL		0x800
#define LINUX_O_NOCTTY		0x8000
#define LINUX_O_LARGEFILE	0x40000
#define LINUX_O_DIRECTORY	0x10000
#define LINUX_F_DUPFD		0
#define LINUX_F_GETFD		1
#define LINUX_F_SETFD		2
#define LINUX_F_GETFL		3
#define LINUX_F_SETFL		4
#define LINUX_FD_CLOEXEC	1
#define LINUX_F_GETLK64		12
#define LINUX_F_SETLK64		13
#define LINUX_F_SETLKW64	14
#define LINUX_F_RDLCK		1
#define LINUX_F_WRLCK		2
#define LINUX_F_UNLCK		3

#endif /* !_LINUX_FCNTL_H_ */
