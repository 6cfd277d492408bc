/* The floor of a no-change resync, for Benchmarks/sync.py: looks at every entry of the
 * trees A and B the way any sync that must notice an edit without a watcher has to —
 * each folder listed, each entry's status taken (size, times, inode: what tells an
 * edited file) — and nothing more: no index, no state, no comparison, no output.
 *
 *   each folder opened (O_DIRECTORY | O_NOFOLLOW) below its parent and listed;
 *   fstatat(AT_SYMLINK_NOFOLLOW) on each entry; folders descended.
 *
 * One thread per tree, so that the floor is not slower than a tool for lack of the
 * second core (Folio looks at its two replicas on two cores; rsync -a runs a sender
 * and a receiver, each listing its own side). Built by sync.py with `gcc -O2 -pthread`.
 *
 *   lookfloor A B
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void fail(const char *what, const char *path) {
    fprintf(stderr, "lookfloor: %s %s: %s\n", what, path, strerror(errno));
    exit(1);
}

/* Lists the open folder `fd` (taken over and closed), taking each entry's status. */
static long look(int fd, const char *name) {
    DIR *dir = fdopendir(fd);
    if (!dir) fail("list", name);
    long seen = 0;
    struct dirent *entry;
    while ((errno = 0, entry = readdir(dir)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        struct stat st;
        if (fstatat(dirfd(dir), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) fail("stat", entry->d_name);
        seen++;
        if (S_ISDIR(st.st_mode)) {
            int child = openat(dirfd(dir), entry->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (child < 0) fail("open", entry->d_name);
            seen += look(child, entry->d_name);
        }
    }
    if (errno != 0) fail("list", name);
    closedir(dir);
    return seen;
}

static void *look_tree(void *path) {
    int fd = open((const char *)path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) fail("open", path);
    return (void *)look(fd, path);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: lookfloor A B\n");
        return 2;
    }
    pthread_t other;
    if (pthread_create(&other, NULL, look_tree, argv[2]) != 0) fail("thread for", argv[2]);
    long a = (long)look_tree(argv[1]);
    void *b;
    pthread_join(other, &b);
    return a > 0 && (long)b > 0 ? 0 : 1;
}
