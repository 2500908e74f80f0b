// POSIX file work for exporting: whole-file reads, temporary files, syncing, renames that
// never replace a file, and telling a full or read-only folder from a bad photo.

import CMetadataSupport
import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

/// An error number (errno), as an error.
struct Errno: Error, Equatable {
    var code: Int32
}

enum DiskFile {
    /// Temporary files start with this; hidden, so a file manager showing the folder while
    /// an export runs does not list them.
    static let temporaryPrefix = ".caption-export-"
    /// Takes the export folder for this process, and removes what exports killed there left
    /// (hidden `.caption-export-*` files): an exclusive lock on the folder says no other
    /// export is running in it, so those files are no one's. Returns the folder's
    /// descriptor, which holds the lock until it is closed; -1 when another export has it
    /// (then nothing is removed, and the export goes on all the same).
    static func claimExportFolder(_ folder: String) -> Int32 {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return -1 }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, let directory = opendir(folder) else {
            close(descriptor)
            return -1
        }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = entryName(entry)
            var info = stat()
            guard name.hasPrefix(temporaryPrefix), fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0,
                info.st_mode & S_IFMT == S_IFREG
            else { continue }
            unlinkat(descriptor, name, 0)
        }
        return descriptor
    }

    /// A regular file's bytes, or the error number. Unless `followingLinks`, a symbolic link
    /// at `path` itself is not read (ELOOP).
    static func read(_ path: String, followingLinks: Bool = true) -> Result<[UInt8], Errno> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (followingLinks ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else { return .failure(Errno(code: errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(Errno(code: errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(Errno(code: EINVAL)) }
        let size = Int(info.st_size)
        guard size <= POSIXFiles.maximumPhotoBytes else { return .failure(Errno(code: EFBIG)) }
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: max(size, 1)) { buffer, count in
            // The capacity is at least 1, so the buffer has an address.
            let base = buffer.baseAddress!
            while count < size {
                let got = Glibc.read(descriptor, base + count, size - count)
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if got == 0 { break }  // it shrank: what is there is what there is
                count += got
            }
        }
        return failure == 0 ? .success(bytes) : .failure(Errno(code: failure))
    }

    /// A new temporary file in `folder`, holding `bytes`, not yet synced; its path. Its
    /// mode is the umask's (0666 less it), as any file the user saves.
    static func temporary(
        in folder: String, extension ext: String, holding bytes: [UInt8], prefix: String = temporaryPrefix
    ) -> Result<String, Errno> {
        var descriptor: Int32 = -1
        var path = ""
        for _ in 0..<16 {
            path = folder + "/" + prefix + String(UInt64.random(in: 0...UInt64.max), radix: 36) + "." + ext
            descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { return .failure(Errno(code: errno)) }
        var failure = POSIXFiles.writeAll(descriptor, bytes)
        if close(descriptor) != 0 && failure == nil && errno != EINTR { failure = errno }
        if let failure {
            unlink(path)
            return .failure(Errno(code: failure))
        }
        return .success(path)
    }

    /// Replaces a file's content (a temporary file of ours, never the user's).
    static func rewrite(_ path: String, _ bytes: [UInt8]) -> Int32? {
        let descriptor = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard descriptor >= 0 else { return errno }
        var failure = POSIXFiles.writeAll(descriptor, bytes)
        if close(descriptor) != 0 && failure == nil && errno != EINTR { failure = errno }
        return failure
    }

    /// Flushes a file (or a folder's entries) to the disk.
    static func sync(_ path: String, folder: Bool = false) -> Int32? {
        let descriptor = open(path, (folder ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        return fsync(descriptor) == 0 ? nil : errno
    }

    /// Renames `from` to `to` unless `to` exists (EEXIST then). Where the file system
    /// cannot rename that way, a hard link does the same; where it has no hard links
    /// either (FAT on a memory card), a check then a rename, which only a program writing
    /// the same name at the same instant could defeat.
    static func placeWithoutReplacing(_ from: String, at to: String) -> Int32? {
        if caption_rename_noreplace(from.pathBytes, to.pathBytes) == 0 { return nil }
        let code = errno
        guard code == EINVAL || code == ENOSYS || code == ENOTSUP else { return code }
        if link(from, to) == 0 {
            unlink(from)
            return nil
        }
        let linkCode = errno
        guard linkCode == EPERM || linkCode == ENOTSUP || linkCode == EOPNOTSUPP else { return linkCode }
        var info = stat()
        if lstat(to, &info) == 0 { return EEXIST }
        return rename(from, to) == 0 ? nil : errno
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Whether the folder beside `path` could take another file of `bytes` (plus room for
    /// metadata): the error number of a full, over-quota, size-limited or read-only one, or
    /// nil when there is room. exempi reports such failures only as "write failure".
    static func roomProblem(besides path: String, bytes: Int) -> Int32? {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let probe = folder + "/" + temporaryPrefix + "probe-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return errno }
        defer {
            close(descriptor)
            unlink(probe)
        }
        let code = posix_fallocate(descriptor, 0, off_t(bytes + (1 << 16)))
        switch code {
        case ENOSPC, EDQUOT, EFBIG, EROFS, EACCES, EPERM, EIO: return code
        default: return nil  // 0, or a file system that cannot say (EOPNOTSUPP): no proof of a problem
        }
    }
}
