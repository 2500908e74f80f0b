/* What the metadata module needs from C and C++ that Swift cannot import: silencing
 * exempi's own error printing, a rename that never replaces a file, the extended
 * attribute calls (Glibc's Swift module leaves <sys/xattr.h> out), and zlib for the PNG
 * text chunks other programs keep Exif in. */
#ifndef CAPTION_METADATA_SUPPORT_H
#define CAPTION_METADATA_SUPPORT_H

#include <sys/xattr.h>
#include <zlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/* exempi writes every error it catches to std::cerr as well as returning it, so a damaged
 * photo would put "XML parsing failure" on the command line's standard error. Caption
 * reports errors itself: this puts std::cerr in a failed state, which makes every later
 * write to it a no-op. Nothing else in the process writes to std::cerr. */
void caption_silence_cxx_stderr(void);

/* rename(2) that fails with EEXIST instead of replacing `to` (renameat2 with
 * RENAME_NOREPLACE, which glibc declares only under _GNU_SOURCE). Fails with EINVAL or
 * ENOSYS where the file system or the kernel cannot do it. */
int caption_rename_noreplace(const char *from, const char *to);

#ifdef __cplusplus
}
#endif

#endif
