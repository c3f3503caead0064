/* The errno of <errno.h>: one global, as in 4.4BSD (the guest is single-threaded). */
#include <errno.h>

int errno;
