/* The floor of a crash-safe first sync, for Benchmarks/sync.py: copies the tree SRC
 * into the empty folder DST the way a sync that may never leave a half-written file
 * must, and nothing more — no hashing, no merge base, no archive:
 *
 *   each file read whole; written to a new temporary file beside its target
 *   (O_CREAT | O_EXCL); the temporary's lstat; a rename that fails rather than
 *   replace (renameat2 RENAME_NOREPLACE); the target's lstat; and one sync() at the
 *   end, before anything could record that the files exist.
 *
 * Folders are created as they are met. The top-level entries are shared between two
 * threads, whole folders to each (as Folio's copies are), so that the floor is not
 * slower than a tool for lack of the second core. Built by sync.py with
 * `gcc -O2 -pthread`; Linux only (renameat2).
 *
 *   copyfloor SRC DST
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
    fprintf(stderr, "copyfloor: %s %s: %s\n", what, path, strerror(errno));
    exit(1);
}

static void copy_file(int from_dir, int to_dir, const char *name) {
    int in = openat(from_dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (in < 0) fail("open", name);
    struct stat st;
    if (fstat(in, &st) != 0) fail("fstat", name);
    char *buffer = malloc(st.st_size + 1);
    ssize_t got = 0;
    while (got < st.st_size) {
        ssize_t n = read(in, buffer + got, st.st_size - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail("read", name);
        got += n;
    }
    close(in);
    char temporary[512];
    snprintf(temporary, sizeof temporary, ".%s.floor.tmp", name);
    int out = openat(to_dir, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, st.st_mode & 0777);
    if (out < 0) fail("create", temporary);
    ssize_t put = 0;
    while (put < got) {
        ssize_t n = write(out, buffer + put, got - put);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail("write", temporary);
        put += n;
    }
    close(out);
    free(buffer);
    struct stat ours, there;
    if (fstatat(to_dir, temporary, &ours, AT_SYMLINK_NOFOLLOW) != 0) fail("lstat", temporary);
    if (renameat2(to_dir, temporary, to_dir, name, RENAME_NOREPLACE) != 0) fail("rename", name);
    if (fstatat(to_dir, name, &there, AT_SYMLINK_NOFOLLOW) != 0) fail("lstat", name);
}

/* Copies what the open folder `from_dir` holds into the open folder `to_dir`; with
 * `share` >= 0, only the top-level entries whose index is that share of two. */
static void copy_folder(int from_dir, int to_dir, int share) {
    /* Opened anew, not dup()-ed: two threads listing one open folder through copies of
     * one descriptor would share its offset, each seeing part of the entries. */
    DIR *listing = fdopendir(openat(from_dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!listing) fail("list", ".");
    struct dirent *entry;
    int index = -1;
    while ((entry = readdir(listing)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        index++;
        if (share >= 0 && index % 2 != share) continue;
        struct stat st;
        if (fstatat(from_dir, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) fail("lstat", entry->d_name);
        if (S_ISDIR(st.st_mode)) {
            if (mkdirat(to_dir, entry->d_name, 0777) != 0 && errno != EEXIST) fail("mkdir", entry->d_name);
            int from = openat(from_dir, entry->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            int to = openat(to_dir, entry->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (from < 0 || to < 0) fail("open folder", entry->d_name);
            copy_folder(from, to, -1);
            close(from);
            close(to);
        } else if (S_ISREG(st.st_mode)) {
            copy_file(from_dir, to_dir, entry->d_name);
        }
    }
    closedir(listing);
}

static int source_root, target_root;

static void *copy_share(void *share) {
    copy_folder(source_root, target_root, (int)(long)share);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: copyfloor SRC DST\n");
        return 2;
    }
    source_root = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    target_root = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (source_root < 0 || target_root < 0) fail("open", "root");
    pthread_t other;
    pthread_create(&other, NULL, copy_share, (void *)1L);
    copy_share((void *)0L);
    pthread_join(other, NULL);
    sync();
    return 0;
}
