// POSIX file work for the library: folders, whole-file reads, durable writes, listing and
// the advisory lock that keeps a crash clean-up away from a save in progress.

import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

enum Files {
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    static func size(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    /// The names in a folder, without "." and "..".
    static func list(_ path: String) -> [String]? {
        guard let folder = opendir(path) else { return nil }
        defer { closedir(folder) }
        var names: [String] = []
        while let item = readdir(folder) {
            let name = entryName(item)
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The last component of a path, for showing and storing the original file name.
    static func baseName(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        if let slash = trimmed.lastIndex(of: "/") {
            return String(trimmed[trimmed.index(after: slash)...])
        }
        return String(trimmed)
    }

    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let rest = path == "." ? "" : (path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
        if rest.isEmpty { return cwd }
        return cwd == "/" ? "/" + rest : cwd + "/" + rest
    }

    /// Whether the file at `path` holds exactly `bytes`.
    static func hasContents(_ path: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard size(path) == Int64(bytes.count), let base = bytes.baseAddress else { return false }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while offset < bytes.count {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0, offset + count <= bytes.count else { return false }
            let same = chunk.withUnsafeBytes { read in
                // A 1 MiB array always has storage, so its base address is there.
                memcmp(read.baseAddress!, base + offset, count) == 0
            }
            guard same else { return false }
            offset += count
        }
        return true
    }

    /// A folder opened for fsync and for the advisory lock. flock() locks belong to the
    /// open file description, so each operation opens its own and two threads of one
    /// process exclude each other as two processes do; the kernel drops the lock when a
    /// killed process's descriptors close, so a crash never leaves the library locked.
    struct Folder: ~Copyable {
        let descriptor: Int32

        init?(_ path: String) {
            let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            self.descriptor = descriptor
        }

        deinit { close(descriptor) }

        /// Shared: saves hold it from writing a photo until their row is committed.
        func lockShared() {
            while flock(descriptor, LOCK_SH) != 0 && errno == EINTR {}
        }

        /// Exclusive, without waiting: only a clean-up takes it, and a clean-up can wait
        /// for the next time.
        func tryLockExclusive() -> Bool {
            flock(descriptor, LOCK_EX | LOCK_NB) == 0
        }

        /// Exclusive, retrying for a while: saves hold the shared lock only for the
        /// moment between their photo and their commit.
        func lockExclusive(milliseconds: Int) -> Bool {
            var waited = 0
            while !tryLockExclusive() {
                if waited >= milliseconds { return false }
                usleep(5_000)
                waited += 5
            }
            return true
        }

        /// Makes a rename or a new file in this folder durable.
        func sync() -> Int32? {
            fsync(descriptor) == 0 ? nil : errno
        }

        /// Whether `name` in this folder is a regular file itself (not a link to one).
        func isRegularFile(_ name: String) -> Bool {
            var info = stat()
            return fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFREG
        }

        /// Removes `name` from this folder, never what a link names.
        func remove(_ name: String) {
            unlinkat(descriptor, name, 0)
        }

        /// The bytes of a small regular file in this folder (not through a link); nil when
        /// there is none, or it is larger than `limit`.
        func readSmallFile(_ name: String, limit: Int = 4096) -> [UInt8]? {
            let file = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard file >= 0 else { return nil }
            defer { close(file) }
            var buffer = [UInt8](repeating: 0, count: limit + 1)
            let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
            guard count >= 0, count <= limit else { return nil }
            return Array(buffer[0..<count])
        }

        /// Writes `bytes` to `name` in this folder through a temporary file and a rename;
        /// the error number, or nil.
        func replaceSmallFile(_ name: String, with bytes: [UInt8], temporaryPrefix: String) -> Int32? {
            let temporary = temporaryPrefix + String(UInt64.random(in: 0...UInt64.max), radix: 16)
            let file = openat(descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard file >= 0 else { return errno }
            var failure = bytes.withUnsafeBytes { POSIXFiles.writeAll(file, $0) }
            if failure == nil && fsync(file) != 0 { failure = errno }
            close(file)
            if failure == nil && renameat(descriptor, temporary, descriptor, name) != 0 { failure = errno }
            if failure != nil { unlinkat(descriptor, temporary, 0) }
            return failure
        }
    }
}

extension Array where Element == UInt8 {
    /// `withUnsafeBytes` keeping the library's error type (the standard one rethrows
    /// `any Error`).
    func withBytes<T>(_ body: (UnsafeRawBufferPointer) throws(LibraryError) -> T) throws(LibraryError) -> T {
        var result: Result<T, LibraryError>?
        withUnsafeBytes { bytes in
            result = Result { () throws(LibraryError) -> T in try body(bytes) }
        }
        // withUnsafeBytes always runs its closure once.
        return try result!.get()
    }
}
