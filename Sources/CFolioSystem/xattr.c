// Copying a file's extended attributes onto the file that replaces it: Glibc and
// Darwin spell the calls differently (Darwin adds a position and options).
#include "CFolioSystem.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#if defined(__linux__) || defined(__APPLE__)
#include <sys/xattr.h>

#if defined(__APPLE__)
static ssize_t list_names(int fd, char *buffer, size_t size) { return flistxattr(fd, buffer, size, 0); }
static ssize_t get_value(int fd, const char *name, void *buffer, size_t size) {
    return fgetxattr(fd, name, buffer, size, 0, 0);
}
static int set_value(int fd, const char *name, const void *value, size_t size) { return fsetxattr(fd, name, value, size, 0, 0); }
#else
static ssize_t list_names(int fd, char *buffer, size_t size) { return flistxattr(fd, buffer, size); }
static ssize_t get_value(int fd, const char *name, void *buffer, size_t size) { return fgetxattr(fd, name, buffer, size); }
static int set_value(int fd, const char *name, const void *value, size_t size) { return fsetxattr(fd, name, value, size, 0); }
#endif

// An attribute this process may not read or set (security.*, trusted.* without
// privilege) or a file system without them is no reason to refuse a save.
static int ignorable(int code) {
#if defined(ENOATTR)
    if (code == ENOATTR) return 1;
#endif
    return code == ENOTSUP || code == EPERM || code == EACCES || code == ENODATA;
}

int folio_copy_extended_attributes(int from, int to) {
    ssize_t size;
    char *names = NULL;
    for (;;) {
        size = list_names(from, NULL, 0);
        if (size < 0) return ignorable(errno) || errno == ENOENT ? 0 : -1;
        if (size == 0) return 0;
        names = malloc((size_t)size);
        if (names == NULL) { errno = ENOMEM; return -1; }
        ssize_t listed = list_names(from, names, (size_t)size);
        if (listed >= 0) { size = listed; break; }
        int code = errno;
        free(names);
        // The list grew between the two calls: ask again.
        if (code == ERANGE) continue;
        errno = code;
        return ignorable(code) || code == ENOENT ? 0 : -1;
    }
    int result = 0;
    for (char *name = names; name < names + size; name += strlen(name) + 1) {
        ssize_t length = get_value(from, name, NULL, 0);
        if (length < 0) continue;
        void *value = malloc(length > 0 ? (size_t)length : 1);
        if (value == NULL) { errno = ENOMEM; result = -1; break; }
        length = get_value(from, name, value, (size_t)length);
        if (length >= 0 && set_value(to, name, value, (size_t)length) != 0 && !ignorable(errno)) {
            free(value);
            result = -1;
            break;
        }
        free(value);
    }
    int code = errno;
    free(names);
    errno = code;
    return result;
}

#else
int folio_copy_extended_attributes(int from, int to) { (void)from; (void)to; return 0; }
#endif
