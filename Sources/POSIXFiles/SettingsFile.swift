// A small file of the user's settings (credits, codes, drafts, the window's state) read
// whole, safely: a FIFO, a device or a folder put in its place is refused before a byte is
// read, so nothing waits on it.

#if canImport(Glibc)
    import Glibc
#endif

public enum SettingsFile {
    /// The largest settings file read: more is not one Caption wrote.
    public static let maximumBytes = 16 << 20

    public enum Reading: Equatable {
        case missing
        case contents([UInt8])
        /// A FIFO, a device, a socket or a folder.
        case notRegular
        /// It could not be read: the error number (EFBIG when it is too large).
        case failed(Int32)
    }

    /// The file at `path` read whole. It is opened without waiting (a FIFO's writer never
    /// comes) and must be a regular file; a link to one is followed, as dotfile managers
    /// link settings.
    public static func read(_ path: String) -> Reading {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            let code = errno
            return code == ENOENT || code == ENOTDIR ? .missing : .failed(code)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failed(errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .notRegular }
        guard Int(info.st_size) <= maximumBytes else { return .failed(EFBIG) }
        var bytes = POSIXFiles.read(descriptor, at: 0, count: Int(info.st_size) + 1)
        if bytes.count > Int(info.st_size) { bytes.removeLast() }
        return .contents(bytes)
    }

    /// The bytes, or nil for a file that is missing or refused.
    public static func contents(_ path: String) -> [UInt8]? {
        if case .contents(let bytes) = read(path) { return bytes }
        return nil
    }
}
