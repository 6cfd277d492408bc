// Opening a path below a folder without ever leaving it: Linux's openat2 with
// RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS (Linux 5.6; the kernel
// then refuses any link, `..` or mount crossing on the way). Swift's Glibc module has
// neither the call nor `struct open_how`, so it is made here.
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "CFolioSystem.h"
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/syscall.h>

struct folio_open_how {
    uint64_t flags;
    uint64_t mode;
    uint64_t resolve;
};
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#define FOLIO_RESOLVE_NO_MAGICLINKS 0x02
#define FOLIO_RESOLVE_NO_SYMLINKS 0x04
#define FOLIO_RESOLVE_BENEATH 0x08

int folio_open_beneath(int directory, const char *path, int flags, unsigned int mode) {
    struct folio_open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (uint64_t)(unsigned int)flags;
    how.mode = (flags & O_CREAT) ? mode : 0;
    how.resolve = FOLIO_RESOLVE_BENEATH | FOLIO_RESOLVE_NO_SYMLINKS | FOLIO_RESOLVE_NO_MAGICLINKS;
    return (int)syscall(SYS_openat2, directory, path, &how, sizeof how);
}
#else
int folio_open_beneath(int directory, const char *path, int flags, unsigned int mode) {
    (void)directory; (void)path; (void)flags; (void)mode;
    errno = ENOSYS;
    return -1;
}
#endif
