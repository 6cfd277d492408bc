// The two atomic renames Swift's Glibc module does not export (renameat2 needs
// _GNU_SOURCE and a recent glibc; the raw system call works on every Linux since 3.15).
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "CFolioSystem.h"
#include <errno.h>
#include <stdio.h>

#if defined(__linux__)
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

static int rename2(int fromdir, const char *from, int todir, const char *to, unsigned int flags) {
#ifdef SYS_renameat2
    return (int)syscall(SYS_renameat2, fromdir, from, todir, to, flags);
#else
    errno = ENOSYS;
    return -1;
#endif
}

int folio_rename_noreplace(const char *from, const char *to) { return rename2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE); }
int folio_rename_exchange(const char *from, const char *to) { return rename2(AT_FDCWD, from, AT_FDCWD, to, RENAME_EXCHANGE); }
int folio_renameat_noreplace(int fromdir, const char *from, int todir, const char *to) { return rename2(fromdir, from, todir, to, RENAME_NOREPLACE); }
int folio_renameat_exchange(int fromdir, const char *from, int todir, const char *to) { return rename2(fromdir, from, todir, to, RENAME_EXCHANGE); }

#elif defined(__APPLE__)
// renamex_np: macOS 10.12, iOS 10.
int folio_rename_noreplace(const char *from, const char *to) { return renamex_np(from, to, RENAME_EXCL); }
int folio_rename_exchange(const char *from, const char *to) { return renamex_np(from, to, RENAME_SWAP); }
// renameatx_np: macOS 10.12, iOS 10.
int folio_renameat_noreplace(int fromdir, const char *from, int todir, const char *to) { return renameatx_np(fromdir, from, todir, to, RENAME_EXCL); }
int folio_renameat_exchange(int fromdir, const char *from, int todir, const char *to) { return renameatx_np(fromdir, from, todir, to, RENAME_SWAP); }

#else
int folio_rename_noreplace(const char *from, const char *to) { (void)from; (void)to; errno = ENOSYS; return -1; }
int folio_rename_exchange(const char *from, const char *to) { (void)from; (void)to; errno = ENOSYS; return -1; }
int folio_renameat_noreplace(int fromdir, const char *from, int todir, const char *to) { (void)fromdir; (void)from; (void)todir; (void)to; errno = ENOSYS; return -1; }
int folio_renameat_exchange(int fromdir, const char *from, int todir, const char *to) { (void)fromdir; (void)from; (void)todir; (void)to; errno = ENOSYS; return -1; }
#endif
