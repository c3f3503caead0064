/* Basic system data types, 4.4BSD-flavoured, for the ILP32 guests (MIPS o32 and SPARC v8). */
#ifndef _SYS_TYPES_H_
#define _SYS_TYPES_H_

#include <sys/cdefs.h>
#include <stdint.h>

typedef unsigned char u_char;
typedef unsigned short u_short;
typedef unsigned int u_int;
typedef unsigned long u_long;
typedef int64_t quad_t;
typedef uint64_t u_quad_t;
typedef char *caddr_t;

typedef __SIZE_TYPE__ size_t;
typedef int ssize_t;
typedef int64_t off_t;       /* 4.4BSD: file offsets are 64-bit */
typedef int32_t pid_t;
typedef uint32_t uid_t;
typedef uint32_t gid_t;
typedef uint16_t mode_t;
typedef uint16_t nlink_t;
typedef uint32_t ino_t;
typedef int32_t dev_t;
typedef long time_t;
typedef long suseconds_t;
typedef unsigned long clock_t;
typedef int32_t blksize_t;
typedef int64_t blkcnt_t;
typedef uint32_t fixpt_t;

#endif /* !_SYS_TYPES_H_ */
