/* A rename that never replaces: see metadata_support.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "metadata_support.h"

int caption_rename_noreplace(const char *from, const char *to) {
#ifdef SYS_renameat2
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 1u /* RENAME_NOREPLACE */);
#else
    errno = ENOSYS;
    return -1;
#endif
}
