// A new file written before it has a name, then named in one step: nothing half-written
// is ever seen under a name, and a run killed before the naming leaves nothing behind.
// Linux only (O_TMPFILE, 3.11; linkat through /proc to name it without the privilege
// AT_EMPTY_PATH needs); elsewhere both fail and the caller writes a named temporary file.
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "CFolioSystem.h"
#include <errno.h>

#if defined(__linux__)
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int folio_open_unnamed(int directory, unsigned int mode) {
#ifdef O_TMPFILE
    return openat(directory, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, (mode_t)mode);
#else
    (void)directory; (void)mode;
    errno = EOPNOTSUPP;
    return -1;
#endif
}

int folio_link_unnamed(int fd, int directory, const char *name) {
    char path[48];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    return linkat(AT_FDCWD, path, directory, name, AT_SYMLINK_FOLLOW);
}

#else
int folio_open_unnamed(int directory, unsigned int mode) { (void)directory; (void)mode; errno = EOPNOTSUPP; return -1; }
int folio_link_unnamed(int fd, int directory, const char *name) { (void)fd; (void)directory; (void)name; errno = EOPNOTSUPP; return -1; }
#endif
