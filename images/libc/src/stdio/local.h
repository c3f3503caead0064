/*
 * The FILE structure and the internal interface shared by images/libc/src/stdio (private).
 *
 * A stream is, at any moment, reading, writing or neither (after a seek or flush):
 *   reading: rpos..rend is buffered input not yet consumed;
 *   writing: wbase..wpos is output not yet written, wpos..wend the room left.
 * Inline getc/putc work while rpos < rend / wpos < wend; everything else goes to __srefill and
 * __swbuf. An unbuffered stream has a one-byte buffer; a line-buffered one flushes at '\n'.
 *
 * ungetc pushes back into the buffer when it can (the byte before rpos), otherwise into ub[],
 * saving the buffer pointers in ur/ue until ub[] is consumed (4.4BSD's scheme).
 */
#ifndef _STDIO_LOCAL_H_
#define _STDIO_LOCAL_H_

#include <stdio.h>

#define F_READ   0x0001  /* opened for reading */
#define F_WRITE  0x0002  /* opened for writing */
#define F_RDING  0x0004  /* currently reading */
#define F_WRING  0x0008  /* currently writing */
#define F_EOF    0x0010  /* end-of-file indicator */
#define F_ERR    0x0020  /* error indicator */
#define F_APPEND 0x0040  /* opened with O_APPEND */
#define F_MYBUF  0x0080  /* buf came from malloc and is freed by fclose/setvbuf */
#define F_STR    0x0100  /* a string, not a descriptor: no refill, no write */
#define F_LBF    0x0200  /* line buffered */
#define F_NBF    0x0400  /* unbuffered */
#define F_MODE   0x0800  /* buffering mode decided (by setvbuf or at the first I/O) */
#define F_ALLOC  0x1000  /* the FILE itself came from malloc */
#define F_UB     0x2000  /* reading from ub[] (pushed-back bytes) */

#define UB_SIZE 8        /* bytes ungetc can always push back */

struct __sFILE {
  unsigned char *rpos, *rend;
  unsigned char *wpos, *wend, *wbase;
  unsigned char *buf;
  size_t bufsize;
  int fd;
  int flags;
  struct __sFILE *next;        /* every open stream, for fflush(NULL) and exit */
  unsigned char *ur, *ue;      /* rpos/rend saved while reading ub[] */
  unsigned char ub[UB_SIZE];
  unsigned char nbuf[1];       /* the buffer of an unbuffered stream */
};

/* Streams: the head of the list of open streams, and linking a new one into it. */
extern FILE *__sfirst;
void __slink(FILE *fp);
void __sunlink(FILE *fp);

/* Buffer management and the slow paths of getc/putc. */
int __smakebuf(FILE *fp);
int __srefill(FILE *fp);        /* 0, or EOF at end of file or on error (indicators set) */
int __swbuf(int c, FILE *fp);   /* putc's slow path */
int __swsetup(FILE *fp);        /* makes fp ready for writing: 0 or EOF (errno set) */
int __sflush(FILE *fp);         /* writes pending output: 0 or EOF */
size_t __sfwrite(const void *p, size_t n, FILE *fp);  /* bytes written */
void __sdiscard(FILE *fp);      /* drops buffered input and pushed-back bytes */
void __sunread(FILE *fp);       /* the same, seeking the descriptor back over them (fflush) */
int __sflags(const char *mode, int *oflags);         /* F_* flags or 0 for a bad mode */

static inline int __sgetc(FILE *fp)
{
  return fp->rpos < fp->rend ? *fp->rpos++ : (__srefill(fp) ? EOF : *fp->rpos++);
}

static inline int __sputc(int c, FILE *fp)
{
  if (fp->wpos < fp->wend && !(c == '\n' && (fp->flags & F_LBF))) return *fp->wpos++ = (unsigned char)c;
  return __swbuf(c, fp);
}

/* Initialises fp as a read-only stream over the bytes s..s+n (sscanf, strtod's helpers). */
void __sstropen(FILE *fp, const char *s, size_t n);

/* printf/scanf engines (vfprintf.c, vfscanf.c). */
struct __pout;
int __vfprintf(FILE *fp, const char *fmt, __builtin_va_list ap);
int __vfscanf(FILE *fp, const char *fmt, __builtin_va_list ap);

#endif /* !_STDIO_LOCAL_H_ */
