/* Sizes of integer types (C99 5.2.4.2.1) and POSIX limits for the ILP32 guests. */
#ifndef _LIMITS_H_
#define _LIMITS_H_

#define CHAR_BIT 8
#define SCHAR_MIN (-128)
#define SCHAR_MAX 127
#define UCHAR_MAX 255
#if defined(__CHAR_UNSIGNED__)
#define CHAR_MIN 0
#define CHAR_MAX UCHAR_MAX
#else
#define CHAR_MIN SCHAR_MIN
#define CHAR_MAX SCHAR_MAX
#endif
#define MB_LEN_MAX 1
#define SHRT_MIN (-32767 - 1)
#define SHRT_MAX 32767
#define USHRT_MAX 65535
#define INT_MIN (-2147483647 - 1)
#define INT_MAX 2147483647
#define UINT_MAX 4294967295U
#define LONG_MIN (-2147483647L - 1)
#define LONG_MAX 2147483647L
#define ULONG_MAX 4294967295UL
#define LLONG_MIN (-9223372036854775807LL - 1)
#define LLONG_MAX 9223372036854775807LL
#define ULLONG_MAX 18446744073709551615ULL
#define SSIZE_MAX INT_MAX

#define PATH_MAX 1024   /* bytes in a path name, including the NUL (4.4BSD MAXPATHLEN) */
#define NAME_MAX 255    /* bytes in a file name */
#define PIPE_BUF 512    /* bytes a pipe write transfers atomically (4.4BSD) */
#define ARG_MAX 65536   /* bytes of argv plus envp that execve accepts (4.4BSD NCARGS is 256K) */
#define OPEN_MAX 64     /* descriptors per process */
#define CHILD_MAX 40    /* processes per user */
#define NL_ARGMAX 32    /* the highest numbered argument of printf and scanf ("%32$d") */

#endif /* !_LIMITS_H_ */
