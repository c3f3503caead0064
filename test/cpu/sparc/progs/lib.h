/* Minimal output helpers for the CPU test programs (no libc). */
#ifndef PROGS_LIB_H
#define PROGS_LIB_H
typedef unsigned int u32;
typedef int i32;
typedef unsigned long long u64;
typedef long long i64;
typedef unsigned long size_t;
long sys_write(int fd, const void *buf, unsigned long n);
void sys_exit(int status) __attribute__((noreturn));
void *sys_brk(void *addr);
void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
void put_str(const char *s);
void put_hex(u32 v);
void put_dec(i32 v);
void put_nl(void);
void flush_out(void);
#endif
