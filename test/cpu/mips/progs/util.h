/* Output helpers for the CPU test programs: no libc, just sys_write. */
#ifndef UTIL_H
#define UTIL_H
typedef unsigned int u32;
typedef int i32;
typedef unsigned long long u64;
typedef long long i64;
int sys_write(int fd, const void *buf, int n);
void sys_exit(int status) __attribute__((noreturn));

static inline int slen(const char *s) { int n = 0; while (s[n]) n++; return n; }
static inline void puts_(const char *s) { sys_write(1, s, slen(s)); }
static inline void puthex(u32 v)
{
	char b[9];
	for (int i = 7; i >= 0; i--) { b[i] = "0123456789abcdef"[v & 15]; v >>= 4; }
	b[8] = '\n';
	sys_write(1, b, 9);
}
/* A checksum that mixes every value fed to it. */
static u32 ck = 0x12345678;
static inline void mix(u32 v) { ck = (ck ^ v) * 0x01000193u + (ck >> 7); }
#endif
