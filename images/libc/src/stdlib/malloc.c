/*
 * The allocator: malloc, free, calloc, realloc, reallocarray.
 *
 * Boundary tags over memory from sbrk (dlmalloc's layout). A chunk starts 8-aligned:
 *   +0 prev_size  size of the previous chunk, meaningful only while that chunk is free
 *   +4 head       size | CINUSE (this chunk allocated) | PINUSE (previous chunk allocated)
 *   +8 payload    returned to the caller (8-aligned); it runs over the next chunk's prev_size
 * so an allocated chunk costs 4 bytes of overhead and the smallest chunk is 16 bytes. A free
 * chunk keeps its bin links in its payload and its size in the next chunk's prev_size; free
 * merges with both neighbours at once, so no two free chunks are ever adjacent.
 *
 * Free chunks live in bins: exact-size lists for 16..1016 bytes (O(1) malloc and free, which
 * is what allocation-heavy programs such as an interpreter's cons cells need) and four lists
 * per power of two above, searched best-fit. A bitmap of nonempty bins finds the next larger
 * bin quickly. The last chunk, adjoining the break, is the "top": it grows with sbrk in steps of
 * at least GROW bytes and absorbs whatever is freed next to it. Memory is never given back.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct chunk {
  size_t prev_size;
  size_t head;
  struct chunk *fd, *bk;   /* free chunks: neighbours in the bin's circular list */
} chunk;

#define PINUSE 1u
#define CINUSE 2u
#define FLAGS (PINUSE | CINUSE)
#define MINCHUNK 16u
#define OVERHEAD 4u
#define GROW 65536u

#define SIZE(c) ((c)->head & ~(size_t)FLAGS)
#define AT(c, off) ((chunk *)((char *)(c) + (off)))
#define MEM(c) ((void *)((char *)(c) + 8))
#define CHUNK(p) ((chunk *)((char *)(p) - 8))

#define NSMALL 128   /* bins 2..127 hold exactly 8*i bytes */
#define NBINS 216    /* then 4 per power of two from 2^10 to 2^31 */

static chunk bins[NBINS];          /* list heads; only fd and bk are used */
static uint32_t binmap[(NBINS + 31) / 32];
static chunk *top;                 /* NULL until the first allocation */
static char *heap_end;             /* end of the memory obtained from sbrk */

static int bin_index(size_t s)
{
  if (s < 1024) return (int)(s >> 3);
  int lg = 10;
  while (lg < 31 && (s >> (lg + 1)) != 0) lg++;
  return NSMALL + (lg - 10) * 4 + (int)((s >> (lg - 2)) & 3);
}

static void bin_insert(chunk *c, size_t s)
{
  int i = bin_index(s);
  chunk *h = &bins[i];
  c->fd = h->fd;
  c->bk = h;
  h->fd->bk = c;
  h->fd = c;
  binmap[i >> 5] |= 1u << (i & 31);
}

static void bin_unlink(chunk *c)
{
  chunk *f = c->fd, *b = c->bk;
  f->bk = b;
  b->fd = f;
  if (f == b) {   /* only the list head is left */
    int i = (int)(f - bins);
    binmap[i >> 5] &= ~(1u << (i & 31));
  }
}

/* The first nonempty bin with index >= i, or -1. */
static int next_bin(int i)
{
  for (int w = i >> 5; w < (NBINS + 31) / 32; w++) {
    uint32_t m = binmap[w];
    if (w == i >> 5) m &= ~0u << (i & 31);
    if (m) {
      int b = w * 32;
      while (!(m & 1)) m >>= 1, b++;
      return b;
    }
  }
  return -1;
}

/* Asks sbrk for room so that top holds at least s + MINCHUNK bytes; 0 on failure. */
static int grow(size_t s)
{
  size_t have = top ? SIZE(top) : 0;
  size_t need = s + MINCHUNK - have;
  size_t amount = (need + GROW - 1) & ~(size_t)(GROW - 1);
  char *p = sbrk((intptr_t)amount);
  if (p == (char *)-1) {
    amount = (need + 4095) & ~(size_t)4095;
    p = sbrk((intptr_t)amount);
    if (p == (char *)-1) return 0;
  }
  if (top && p == heap_end) {
    top->head = (have + amount) | (top->head & FLAGS);
  } else {
    /* First call, or someone else moved the break: start a new top. The old one (if any)
     * becomes an allocated chunk that is never freed, which fences it off. */
    if (top) top->head |= CINUSE;
    chunk *c = (chunk *)(((uintptr_t)p + 7) & ~(uintptr_t)7);
    size_t usable = (size_t)(p + amount - (char *)c);
    if (usable < s + MINCHUNK) return 0;
    top = c;
    top->head = usable | PINUSE;
  }
  heap_end = p + amount;
  return 1;
}

static size_t request2size(size_t n)
{
  if (n > (size_t)-1 / 2) return 0;
  size_t s = (n + OVERHEAD + 7) & ~(size_t)7;
  return s < MINCHUNK ? MINCHUNK : s;
}

/* Allocates s bytes out of free chunk c (already unlinked), returning the tail to a bin. */
static void *carve(chunk *c, size_t s)
{
  size_t cs = SIZE(c);
  if (cs - s >= MINCHUNK) {
    chunk *r = AT(c, s);
    r->head = (cs - s) | PINUSE;
    AT(r, cs - s)->prev_size = cs - s;
    bin_insert(r, cs - s);
    c->head = s | (c->head & PINUSE) | CINUSE;
  } else {
    c->head |= CINUSE;
    AT(c, cs)->head |= PINUSE;
  }
  return MEM(c);
}

/* malloc's body. calloc and realloc call it by this name: gcc would turn malloc followed by
 * memset into a call of calloc, which inside calloc recurses forever. */
static void *allocate(size_t n)
{
  if (top == NULL) {
    for (int i = 0; i < NBINS; i++) bins[i].fd = bins[i].bk = &bins[i];
    if (!grow(0)) {
      errno = ENOMEM;
      return NULL;
    }
  }
  size_t s = request2size(n);
  if (s == 0) {
    errno = ENOMEM;
    return NULL;
  }
  int i = bin_index(s);
  chunk *h = &bins[i];
  if (i < NSMALL) {
    chunk *c = h->fd;
    if (c != h) {
      bin_unlink(c);
      return carve(c, s);
    }
  } else {
    chunk *best = NULL;
    for (chunk *c = h->fd; c != h; c = c->fd)
      if (SIZE(c) >= s && (best == NULL || SIZE(c) < SIZE(best))) {
        best = c;
        if (SIZE(c) == s) break;
      }
    if (best) {
      bin_unlink(best);
      return carve(best, s);
    }
  }
  /* Any chunk of a higher bin is big enough. */
  int j = next_bin(i + 1);
  if (j >= 0) {
    chunk *c = bins[j].fd;
    bin_unlink(c);
    return carve(c, s);
  }
  if (SIZE(top) < s + MINCHUNK && !grow(s)) {
    errno = ENOMEM;
    return NULL;
  }
  chunk *c = top;
  size_t ts = SIZE(top);
  top = AT(c, s);
  top->head = (ts - s) | PINUSE;
  c->head = s | (c->head & PINUSE) | CINUSE;
  return MEM(c);
}

void *malloc(size_t n)
{
  return allocate(n);
}

void free(void *p)
{
  if (p == NULL) return;
  chunk *c = CHUNK(p);
  size_t s = SIZE(c);
  chunk *next = AT(c, s);
  if (!(c->head & PINUSE)) {
    chunk *prev = AT(c, -(ptrdiff_t)c->prev_size);
    bin_unlink(prev);
    s += SIZE(prev);
    c = prev;
  }
  if (next == top) {
    top = c;
    top->head = (s + SIZE(next)) | PINUSE;
    return;
  }
  if (!(next->head & CINUSE)) {
    bin_unlink(next);
    s += SIZE(next);
  } else {
    next->head &= ~(size_t)PINUSE;
  }
  c->head = s | PINUSE;
  AT(c, s)->prev_size = s;
  bin_insert(c, s);
}

/* Gives back the tail of allocated chunk c beyond s bytes, when it is big enough to stand alone. */
static void shrink(chunk *c, size_t s)
{
  size_t cs = SIZE(c);
  if (cs - s < MINCHUNK) return;
  chunk *r = AT(c, s);
  r->head = (cs - s) | PINUSE | CINUSE;
  c->head = s | (c->head & FLAGS);
  free(MEM(r));
}

void *realloc(void *p, size_t n)
{
  if (p == NULL) return allocate(n);
  if (n == 0) {
    free(p);
    return NULL;
  }
  size_t s = request2size(n);
  if (s == 0) {
    errno = ENOMEM;
    return NULL;
  }
  chunk *c = CHUNK(p);
  size_t cs = SIZE(c);
  if (cs >= s) {
    shrink(c, s);
    return p;
  }
  chunk *next = AT(c, cs);
  if (next == top) {
    size_t avail = cs + SIZE(top);
    if (avail >= s + MINCHUNK) {
      top = AT(c, s);
      top->head = (avail - s) | PINUSE;
      c->head = s | (c->head & FLAGS);
      return p;
    }
  } else if (!(next->head & CINUSE) && cs + SIZE(next) >= s) {
    bin_unlink(next);
    cs += SIZE(next);
    c->head = cs | (c->head & FLAGS);
    AT(c, cs)->head |= PINUSE;
    shrink(c, s);
    return p;
  }
  void *q = allocate(n);
  if (q == NULL) return NULL;
  memcpy(q, p, cs - OVERHEAD);
  free(p);
  return q;
}

void *calloc(size_t count, size_t n)
{
  if (n && count > (size_t)-1 / n) {
    errno = ENOMEM;
    return NULL;
  }
  void *p = allocate(count * n);
  if (p) memset(p, 0, count * n);
  return p;
}

void *reallocarray(void *p, size_t count, size_t n)
{
  if (n && count > (size_t)-1 / n) {
    errno = ENOMEM;
    return NULL;
  }
  return realloc(p, count * n);
}
