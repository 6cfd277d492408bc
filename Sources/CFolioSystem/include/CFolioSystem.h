#ifndef C_FOLIO_SYSTEM_H
#define C_FOLIO_SYSTEM_H

#include <stddef.h>
#include <stdint.h>

// Swift's Glibc module leaves out <sys/xattr.h>; through here tests reach it too.
#if defined(__linux__) || defined(__APPLE__)
#include <sys/xattr.h>
#endif

/// rename(2) that fails with EEXIST instead of replacing an existing `to`
/// (Linux: renameat2 RENAME_NOREPLACE; Darwin: renamex_np RENAME_EXCL). -1 and errno
/// on failure; EINVAL or ENOSYS where the file system or kernel cannot do it.
int folio_rename_noreplace(const char *from, const char *to);

/// Swaps `from` and `to` atomically, both of which must exist (Linux: renameat2
/// RENAME_EXCHANGE; Darwin: renamex_np RENAME_SWAP). -1 and errno on failure.
int folio_rename_exchange(const char *from, const char *to);

/// Gives the memory malloc holds free back to the system: glibc's malloc_trim(0);
/// nothing elsewhere (Darwin has malloc_zone_pressure_relief, called from Swift).
void folio_release_free_memory(void);
/// Flushes the open file `fd` to the disk: fcntl F_FULLFSYNC on Darwin (fsync where a
/// file system refuses it), fsync elsewhere. 0, or -1 and errno.
int folio_full_sync(int fd);
/// SHA-256's 64 round constants (FIPS 180-4, 4.2.2).
extern const uint32_t folio_sha256_round_constants[64];
/// Whether this processor has the x86 SHA extensions ``folio_sha256_blocks`` uses: 1 or 0.
int folio_sha256_hardware(void);
/// SHA-256's compression of `count` 64-byte blocks at `data` into `state` (the eight
/// words A to H), on the SHA extensions; only where folio_sha256_hardware() is 1.
void folio_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t count);
/// glibc: at most `count` malloc arenas (mallopt M_ARENA_MAX); elsewhere nothing.
void folio_limit_memory_arenas(int count);

/// renameat2(fromdir, from, todir, to, RENAME_NOREPLACE) (Darwin: renameatx_np
/// RENAME_EXCL): the rename below open folders that never replaces.
int folio_renameat_noreplace(int fromdir, const char *from, int todir, const char *to);
/// renameat2(…, RENAME_EXCHANGE) (Darwin: renameatx_np RENAME_SWAP) below open folders.
int folio_renameat_exchange(int fromdir, const char *from, int todir, const char *to);

/// openat2(directory, path, {flags, mode, RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
/// RESOLVE_NO_MAGICLINKS}): opens `path` only if it lies below `directory` with no
/// symbolic link on the way. -1 and errno; ENOSYS where the kernel (or the platform)
/// has no openat2, and the caller walks the components itself.
int folio_open_beneath(int directory, const char *path, int flags, unsigned int mode);

/// A new regular file with no name, in the folder `directory`, open for writing, with
/// permissions `mode` narrowed by the umask (Linux: openat O_TMPFILE). -1 and errno;
/// EOPNOTSUPP where the platform has none (a file system without it gives its own
/// error: EOPNOTSUPP, EISDIR or EINVAL), and the caller writes a named temporary file.
int folio_open_unnamed(int directory, unsigned int mode);
/// Gives the unnamed file `fd` the name `name` in the folder `directory`, failing with
/// EEXIST rather than replace anything there (Linux: linkat of /proc/self/fd/FD). -1
/// and errno; ENOENT where /proc is not mounted, EOPNOTSUPP where the platform has none.
int folio_link_unnamed(int fd, int directory, const char *name);

/// Whether any process (this one included) has the file open as `fd` (which must be
/// open read-only) open for writing: 1 yes, 0 no, -1 and errno when that cannot be
/// told (Linux: a read lease, F_SETLEASE F_RDLCK, taken and given back at once; it is
/// refused with EACCES on another user's file without CAP_LEASE, with EINVAL where the
/// file system has no leases; ENOTSUP on every other platform).
int folio_open_for_writing(int fd);

/// Copies the extended attributes of the open file `from` onto
/// the open file `to`, skipping those the process may not read or set and file
/// systems without any. 0 on success, -1 and errno (EINTR: try again) otherwise.
int folio_copy_extended_attributes(int from, int to);

#endif
