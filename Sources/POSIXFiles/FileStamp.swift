// What tells that a file is still the one read earlier: its device, inode, size and time of
// last change, from one stat().

#if canImport(Glibc)
    import Glibc
#endif

/// A file's identity and version as the file system gives them. Two stamps differ when the
/// file was replaced (another inode, as an editor's save-by-rename does), written (size or
/// change time) or touched; a stamp says nothing about the content itself, and costs one
/// stat() where a hash would read the whole file.
public struct FileStamp: Equatable, Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64
    public let size: Int64
    /// The time of the last change to the content (mtime) and to the inode (ctime), in
    /// nanoseconds: a write that keeps the size and sets the mtime back still moves ctime.
    public let modified: Int64
    public let changed: Int64

    /// The stamp of the file at `path` (links followed), or nil when it cannot be read.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
    }
}
