/*
 * Linux MIPS (o32) open/fcntl flags, from the Linux UAPI asm/ headers, for the Linux flavour's
 * translations; test/images/linux_abi.test.ts checks them against the installed headers.
 */
#ifndef _LINUX_FCNTL_H_
#define _LINUX_FCNTL_H_

#define LINUX_O_ACCMODE		3
#define LINUX_O_RDONLY		0
#define LINUX_O_WRONLY		1
#define LINUX_O_RDWR		2
#define LINUX_O_NONBLOCK	0x80
#define LINUX_O_APPEND		8
#define LINUX_O_CREAT		0x100
#define LINUX_O_TRUNC		0x200
#define LINUX_O_EXCL		0x400
#define LINUX_O_NOCTTY		0x800
#define LINUX_O_LARGEFILE	0x2000
#define LINUX_O_DIRECTORY	0x10000
#define LINUX_F_DUPFD		0
#define LINUX_F_GETFD		1
#define LINUX_F_SETFD		2
#define LINUX_F_GETFL		3
#define LINUX_F_SETFL		4
#define LINUX_FD_CLOEXEC	1
#define LINUX_F_GETLK64		33
#define LINUX_F_SETLK64		34
#define LINUX_F_SETLKW64	35
#define LINUX_F_RDLCK		0
#define LINUX_F_WRLCK		1
#define LINUX_F_UNLCK		2

#endif /* !_LINUX_FCNTL_H_ */
