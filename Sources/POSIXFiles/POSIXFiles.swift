// The POSIX file helpers both libraries need (the library's store and the exporter), written
// once: error descriptions, whole writes and reads, folder creation, and the size limit of
// a photo.

#if canImport(Glibc)
    import Glibc
#endif

public enum POSIXFiles {
    /// The folder holding the running program, from /proc/self/exe (links resolved).
    public static var executableDirectory: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.lastIndex(of: "/").map { String(path[..<$0]) }
    }

    /// A photo is at most this large: intake refuses larger files, and nothing larger is
    /// ever read into memory as a photo.
    public static let maximumPhotoBytes = 256 << 20

    /// The C library's description of an error number, in the user's language.
    public static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// Writes all of `bytes` to `descriptor`, retrying short writes and interruptions;
    /// returns the error number of a failure.
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        guard var next = bytes.baseAddress else { return nil }
        var left = bytes.count
        while left > 0 {
            let written = write(descriptor, next, min(left, 1 << 30))
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if written == 0 { return EIO }
            next += written
            left -= written
        }
        return nil
    }

    public static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32? {
        bytes.withUnsafeBytes { writeAll(descriptor, $0) }
    }

    /// Up to `count` bytes at `offset`, retrying short reads and interruptions; fewer at the
    /// end of the file or on an error.
    public static func read(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                // The buffer holds `count` bytes and `filled` is below it.
                pread(descriptor, buffer.baseAddress! + filled, count - filled, off_t(offset + filled))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            filled += got
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// The folder and any missing parents, each new one made with `mode` (less the umask);
    /// an existing folder keeps its mode. The error number, or nil when the folder is there
    /// (ENOTDIR when a component is a file).
    public static func makeFolders(_ path: String, mode: mode_t) -> Int32? {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += component
            if mkdir(prefix, mode) != 0 {
                let code = errno
                var info = stat()
                guard stat(prefix, &info) == 0 else { return code }
                guard info.st_mode & S_IFMT == S_IFDIR else { return ENOTDIR }
            }
            prefix += "/"
        }
        return nil
    }
}
