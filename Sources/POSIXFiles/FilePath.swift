// Paths as Linux has them, bytes, held in Swift strings without losing any: a byte that is
// not part of a UTF-8 character is kept as one private-use character, and turned back into
// that byte wherever the path reaches the system (the String overloads of the file calls
// below, and `pathBytes`). People see such bytes as U+FFFD, as GLib's display names show them.
//
// The characters U+10FE80...U+10FEFF stand for the bytes 0x80...0xFF. Were one of them in a
// name as UTF-8 (it is in a private-use plane no script uses), its four bytes are each kept
// as such a character too, so that every name comes back byte for byte.

#if canImport(Glibc)
    import Glibc
#endif

public enum FilePath {
    static let base: UInt32 = 0x10FE00

    /// The path in `bytes` (no NUL), each byte kept.
    public static func string(fromBytes bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        if let text = String(validating: bytes, as: UTF8.self), !text.unicodeScalars.contains(where: isEscape) {
            return text
        }
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            if let (scalar, length) = decode(bytes, at: index), !isEscape(scalar) {
                scalars.append(scalar)
                index += length
            } else {
                // A byte below 0x80 always decodes, so this one is 0x80 or above.
                scalars.append(Unicode.Scalar(base + UInt32(bytes[index]))!)
                index += 1
            }
        }
        return String(scalars)
    }

    /// The path in a C string, each byte kept.
    public static func string(fromCString pointer: UnsafePointer<CChar>) -> String {
        string(fromBytes: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
    }

    /// The path's bytes, as the system has them (no NUL).
    public static func bytes(_ path: String) -> [UInt8] {
        guard path.unicodeScalars.contains(where: isEscape) else { return Array(path.utf8) }
        var bytes: [UInt8] = []
        for scalar in path.unicodeScalars {
            if isEscape(scalar) {
                bytes.append(UInt8(scalar.value - base))
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }

    /// The path as people read it: each byte that is not UTF-8 shown as U+FFFD.
    public static func display(_ text: String) -> String {
        guard hasRawBytes(text) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isEscape($0) ? "\u{FFFD}" : $0 }))
    }

    /// Whether the text holds a byte that is not UTF-8.
    /// An escape is a four-byte character whose first byte is F4: text without that byte
    /// (nearly all) is told from its bytes, without decoding a character, which listing a
    /// million entries' fields did for every one.
    public static func hasRawBytes(_ text: String) -> Bool {
        // memchr over the UTF-8 in place: the UTF-8 view's `contains` cost a twelfth of
        // listing a million entries.
        var text = text
        let mayHave = text.withUTF8 { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
            return memchr(base, 0xF4, bytes.count) != nil
        }
        return mayHave && text.unicodeScalars.contains(where: isEscape)
    }

    static func isEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= base + 0x80 && scalar.value <= base + 0xFF
    }

    /// The scalar starting at `index` and its length in bytes, if a well-formed UTF-8
    /// character starts there (no overlong forms, no surrogates).
    static func decode(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int
        let minimum: UInt32
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: (length, minimum, value) = (2, 0x80, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, minimum, value) = (3, 0x800, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, minimum, value) = (4, 0x10000, UInt32(lead & 0x07))
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}

extension String {
    /// The path's bytes for a C call that takes a file name, NUL-terminated.
    public var pathBytes: [CChar] {
        FilePath.bytes(self).map { CChar(bitPattern: $0) } + [0]
    }
}

// The file calls Caption makes, taking a path as Caption holds it: at a call with a String,
// Swift prefers these to the C functions (which would need the String turned into a pointer,
// as UTF-8, changing a byte that is not). Each hands the path's own bytes to the system.

public func open(_ path: String, _ flags: Int32) -> Int32 { Glibc.open(path.pathBytes, flags) }
public func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    Glibc.open(path.pathBytes, flags, mode)
}
public func openat(_ folder: Int32, _ name: String, _ flags: Int32) -> Int32 {
    Glibc.openat(folder, name.pathBytes, flags)
}
public func openat(_ folder: Int32, _ name: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    Glibc.openat(folder, name.pathBytes, flags, mode)
}
// Glibc.stat names the structure as well as the function, so both go through fstatat.
public func stat(_ path: String, _ info: UnsafeMutablePointer<stat>) -> Int32 {
    Glibc.fstatat(AT_FDCWD, path.pathBytes, info, 0)
}
public func lstat(_ path: String, _ info: UnsafeMutablePointer<stat>) -> Int32 {
    Glibc.fstatat(AT_FDCWD, path.pathBytes, info, AT_SYMLINK_NOFOLLOW)
}
public func fstatat(_ folder: Int32, _ name: String, _ info: UnsafeMutablePointer<stat>, _ flags: Int32) -> Int32 {
    Glibc.fstatat(folder, name.pathBytes, info, flags)
}
public func rename(_ from: String, _ to: String) -> Int32 { Glibc.rename(from.pathBytes, to.pathBytes) }
public func renameat(_ fromFolder: Int32, _ from: String, _ toFolder: Int32, _ to: String) -> Int32 {
    Glibc.renameat(fromFolder, from.pathBytes, toFolder, to.pathBytes)
}
public func link(_ from: String, _ to: String) -> Int32 { Glibc.link(from.pathBytes, to.pathBytes) }
public func unlink(_ path: String) -> Int32 { Glibc.unlink(path.pathBytes) }
public func unlinkat(_ folder: Int32, _ name: String, _ flags: Int32) -> Int32 {
    Glibc.unlinkat(folder, name.pathBytes, flags)
}
public func mkdir(_ path: String, _ mode: mode_t) -> Int32 { Glibc.mkdir(path.pathBytes, mode) }
public func access(_ path: String, _ mode: Int32) -> Int32 { Glibc.access(path.pathBytes, mode) }
public func chmod(_ path: String, _ mode: mode_t) -> Int32 { Glibc.chmod(path.pathBytes, mode) }
public func chown(_ path: String, _ owner: uid_t, _ group: gid_t) -> Int32 {
    Glibc.chown(path.pathBytes, owner, group)
}
public func opendir(_ path: String) -> OpaquePointer? { Glibc.opendir(path.pathBytes) }

/// The path with links and `..` resolved, each byte kept; nil when it does not exist.
public func realpath(_ path: String) -> String? {
    guard let resolved = Glibc.realpath(path.pathBytes, nil) else { return nil }
    defer { free(resolved) }
    return FilePath.string(fromCString: resolved)
}

/// A directory entry's name, each byte kept. Read only as far as the name's NUL, from the
/// name's address: glibc sizes each record to its name, so the 256 bytes the type declares
/// may run past the end of the buffer.
public func entryName(_ entry: UnsafeMutablePointer<dirent>) -> String {
    // dirent always has d_name, so the offset exists.
    let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
    return FilePath.string(fromCString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
}
