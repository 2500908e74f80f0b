// A photo file opened for reading: only a regular file, read whole or in parts, with
// the library's messages for what goes wrong.

import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

/// An opened photo file: refuses what is not a regular file before reading a byte, so a
/// FIFO cannot hang us and a device cannot feed us forever.
struct PhotoFile: ~Copyable {
    let descriptor: Int32
    let size: Int
    let path: String

    init(opening path: String) throws(LibraryError) {
        self.path = path
        var info = stat()
        if stat(path, &info) != 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR || path.isEmpty {
                throw LibraryError.make(.photoMissing, "Photo not found: {path}", ["path": path])
            }
            throw LibraryError.make(
                .photoUnreadable, "Cannot read the photo ({reason}): {path}",
                ["reason": POSIXFiles.reason(code), "path": path])
        }
        try PhotoFile.checkKind(info, path)
        // O_NONBLOCK: if the path was swapped for a FIFO since the stat, open must not wait.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT {
                throw LibraryError.make(.photoMissing, "Photo not found: {path}", ["path": path])
            }
            throw LibraryError.make(
                .photoUnreadable, "Cannot read the photo ({reason}): {path}",
                ["reason": POSIXFiles.reason(code), "path": path])
        }
        // What was opened is what counts.
        if fstat(descriptor, &info) != 0 { info.st_mode = 0 }
        do {
            try PhotoFile.checkKind(info, path)
        } catch {
            close(descriptor)
            throw error
        }
        let size = Int(info.st_size)
        if size == 0 {
            close(descriptor)
            throw LibraryError.make(.photoEmpty, "The photo file is empty: {path}", ["path": path])
        }
        if size > POSIXFiles.maximumPhotoBytes {
            close(descriptor)
            throw PhotoFile.tooLarge(size, path)
        }
        self.descriptor = descriptor
        self.size = size
    }

    deinit { close(descriptor) }

    static func checkKind(_ info: stat, _ path: String) throws(LibraryError) {
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            return
        case S_IFDIR:
            throw LibraryError.make(.photoIsFolder, "This is a folder, not a photo: {path}", ["path": path])
        default:
            throw LibraryError.make(
                .photoNotRegular,
                "Not a regular file (a device, pipe or socket), so not a photo: {path}", ["path": path])
        }
    }

    static func tooLarge(_ size: Int, _ path: String) -> LibraryError {
        LibraryError.make(
            .photoTooLarge, "The photo is too large ({size} MiB; at most {limit} MiB): {path}",
            [
                "size": String((size + (1 << 20) - 1) >> 20),
                "limit": String(POSIXFiles.maximumPhotoBytes >> 20), "path": path,
            ])
    }

    /// Reads into `buffer` from `offset` to its end; 0 at the end of the file.
    func read(into buffer: inout [UInt8], from offset: Int) throws(LibraryError) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in
                // baseAddress is non-nil: the caller's buffer is never empty.
                Glibc.read(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            }
            if count >= 0 { return count }
            let code = errno
            if code == EINTR { continue }
            throw LibraryError.make(
                .photoUnreadable, "Cannot read the photo ({reason}): {path}",
                ["reason": POSIXFiles.reason(code), "path": path])
        }
    }

    /// The whole file, read once. A file that grew past the limit since it was opened is
    /// refused too.
    func readAll() throws(LibraryError) -> [UInt8] {
        var failure: Int32 = 0
        var grew = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, count in
            // baseAddress is non-nil: the capacity is at least 2.
            let base = buffer.baseAddress!
            while count < buffer.count {
                let got = Glibc.read(descriptor, base + count, buffer.count - count)
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if got == 0 { break }
                count += got
            }
            // One byte beyond the expected size means the file is still growing.
            if count > size {
                grew = count > POSIXFiles.maximumPhotoBytes
                count = size
            }
        }
        if failure != 0 {
            throw LibraryError.make(
                .photoUnreadable, "Cannot read the photo ({reason}): {path}",
                ["reason": POSIXFiles.reason(failure), "path": path])
        }
        if grew { throw PhotoFile.tooLarge(size + 1, path) }
        if bytes.isEmpty {
            throw LibraryError.make(.photoEmpty, "The photo file is empty: {path}", ["path": path])
        }
        return bytes
    }
}
