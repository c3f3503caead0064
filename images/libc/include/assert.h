/*
 * Diagnostics (C11 7.2). Unlike other headers this one may be included repeatedly: each inclusion
 * redefines assert() according to the current NDEBUG.
 *
 * A failed assertion writes "Assertion failed: (expr), function f, file F, line N." to stderr
 * and calls abort().
 */
#include <sys/cdefs.h>

#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __func__))
#endif

#ifndef _ASSERT_H_
#define _ASSERT_H_
#define static_assert _Static_assert
__BEGIN_DECLS
void __assert_fail(const char *expr, const char *file, int line, const char *func) __dead2;
__END_DECLS
#endif /* !_ASSERT_H_ */
