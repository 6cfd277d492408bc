// Whether a file is open for writing anywhere, asked of the kernel through a read lease
// (Linux: a read lease is refused with EAGAIN while any descriptor has the file open
// for writing). Taken and given back at once: only the answer is wanted.
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "CFolioSystem.h"
#include <errno.h>

#if defined(__linux__)
#include <fcntl.h>

int folio_open_for_writing(int fd) {
    if (fcntl(fd, F_SETLEASE, F_RDLCK) == 0) {
        // Given back before anyone could want it: nothing here waits on a lease break.
        (void)fcntl(fd, F_SETLEASE, F_UNLCK);
        return 0;
    }
    return errno == EAGAIN ? 1 : -1;
}

#else
int folio_open_for_writing(int fd) { (void)fd; errno = ENOTSUP; return -1; }
#endif
