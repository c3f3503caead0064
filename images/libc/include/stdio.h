/*
 * Standard buffered input/output (C11 7.21), with the POSIX and BSD extensions programs here use.
 *
 * FILE is opaque: every access goes through a function (the getc/putc fast paths live inside
 * libc). Buffering: files are fully buffered, a stream on a terminal (isatty) is line buffered,
 * stderr is unbuffered.
 */
#ifndef _STDIO_H_
#define _STDIO_H_

#include <sys/cdefs.h>
#include <sys/types.h>
#define __need_size_t
#define __need_NULL
#include <stddef.h>

typedef struct __sFILE FILE;
typedef off_t fpos_t;

#define BUFSIZ 1024        /* default buffer size (4.4BSD) */
#define EOF (-1)
#define FOPEN_MAX 20
#define FILENAME_MAX 1024  /* PATH_MAX */
#define L_tmpnam 1024
#define TMP_MAX 308915776

#define _IOFBF 0           /* setvbuf modes */
#define _IOLBF 1
#define _IONBF 2

#ifndef SEEK_SET
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#endif

extern FILE *stdin;
extern FILE *stdout;
extern FILE *stderr;

__BEGIN_DECLS
FILE *fopen(const char *path, const char *mode);
FILE *fdopen(int fd, const char *mode);
FILE *freopen(const char *path, const char *mode, FILE *fp);
int fclose(FILE *fp);
int fflush(FILE *fp);
void setbuf(FILE *fp, char *buf);
int setvbuf(FILE *fp, char *buf, int mode, size_t size);
void setbuffer(FILE *fp, char *buf, int size);
int setlinebuf(FILE *fp);

size_t fread(void *ptr, size_t size, size_t n, FILE *fp);
size_t fwrite(const void *ptr, size_t size, size_t n, FILE *fp);
int fgetc(FILE *fp);
int getc(FILE *fp);
int getchar(void);
int fputc(int c, FILE *fp);
int putc(int c, FILE *fp);
int putchar(int c);
int ungetc(int c, FILE *fp);
char *fgets(char *s, int n, FILE *fp);
int fputs(const char *s, FILE *fp);
int puts(const char *s);
ssize_t getdelim(char **linep, size_t *cap, int delim, FILE *fp);
ssize_t getline(char **linep, size_t *cap, FILE *fp);

int fseek(FILE *fp, long off, int whence);
int fseeko(FILE *fp, off_t off, int whence);
long ftell(FILE *fp);
off_t ftello(FILE *fp);
void rewind(FILE *fp);
int fgetpos(FILE *fp, fpos_t *pos);
int fsetpos(FILE *fp, const fpos_t *pos);

int feof(FILE *fp);
int ferror(FILE *fp);
void clearerr(FILE *fp);
int fileno(FILE *fp);
void perror(const char *s);
int remove(const char *path);
int rename(const char *from, const char *to);
FILE *tmpfile(void);
char *tmpnam(char *s);
FILE *popen(const char *command, const char *mode);
int pclose(FILE *fp);

int printf(const char *fmt, ...) __printflike(1, 2);
int fprintf(FILE *fp, const char *fmt, ...) __printflike(2, 3);
int dprintf(int fd, const char *fmt, ...) __printflike(2, 3);
int sprintf(char *s, const char *fmt, ...) __printflike(2, 3);
int snprintf(char *s, size_t n, const char *fmt, ...) __printflike(3, 4);
int asprintf(char **sp, const char *fmt, ...) __printflike(2, 3);
int vprintf(const char *fmt, __builtin_va_list ap) __printflike(1, 0);
int vfprintf(FILE *fp, const char *fmt, __builtin_va_list ap) __printflike(2, 0);
int vdprintf(int fd, const char *fmt, __builtin_va_list ap) __printflike(2, 0);
int vsprintf(char *s, const char *fmt, __builtin_va_list ap) __printflike(2, 0);
int vsnprintf(char *s, size_t n, const char *fmt, __builtin_va_list ap) __printflike(3, 0);
int vasprintf(char **sp, const char *fmt, __builtin_va_list ap) __printflike(2, 0);

int scanf(const char *fmt, ...) __scanflike(1, 2);
int fscanf(FILE *fp, const char *fmt, ...) __scanflike(2, 3);
int sscanf(const char *s, const char *fmt, ...) __scanflike(2, 3);
int vscanf(const char *fmt, __builtin_va_list ap) __scanflike(1, 0);
int vfscanf(FILE *fp, const char *fmt, __builtin_va_list ap) __scanflike(2, 0);
int vsscanf(const char *s, const char *fmt, __builtin_va_list ap) __scanflike(2, 0);
__END_DECLS

#endif /* !_STDIO_H_ */
