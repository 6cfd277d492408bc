// Flushing a file to the disk itself. On Darwin, fsync(2) hands the data to the drive,
// which may still hold it in its cache: F_FULLFSYNC asks the drive to write it out.
// Some file systems (network, FUSE) refuse F_FULLFSYNC; fsync is the fallback there.
#include "CFolioSystem.h"
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int folio_full_sync(int fd) {
#if defined(__APPLE__)
    if (fcntl(fd, F_FULLFSYNC) == 0) return 0;
    if (errno != ENOTSUP && errno != EINVAL && errno != ENOTTY) return -1;
#endif
    return fsync(fd);
}
