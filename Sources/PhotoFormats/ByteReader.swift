// Reading numbers out of a file's bytes without ever reading past them: every read says
// nil instead. The walkers of this module read only through it.

/// Bounds-checked reads from a byte buffer, in either byte order. The buffer must outlive
/// the reader (it is a view, not a copy).
public struct ByteReader {
    public let bytes: UnsafeRawBufferPointer
    public var littleEndian: Bool

    public init(_ bytes: UnsafeRawBufferPointer, littleEndian: Bool = false) {
        self.bytes = bytes
        self.littleEndian = littleEndian
    }

    public var count: Int { bytes.count }

    /// Whether `length` bytes from `offset` lie inside the buffer (no overflow either way).
    public func contains(_ offset: Int, _ length: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= bytes.count && length <= bytes.count - offset
    }

    public func u8(_ offset: Int) -> UInt8? {
        contains(offset, 1) ? bytes[offset] : nil
    }

    /// An unsigned number of `size` bytes (1 to 8) at `offset`.
    public func number(_ offset: Int, _ size: Int) -> UInt64? {
        guard size >= 1 && size <= 8, contains(offset, size) else { return nil }
        var value: UInt64 = 0
        for index in 0..<size {
            let byte = UInt64(bytes[offset + (littleEndian ? size - 1 - index : index)])
            value = value << 8 | byte
        }
        return value
    }

    public func u16(_ offset: Int) -> Int? { number(offset, 2).map { Int($0) } }
    public func u32(_ offset: Int) -> Int? { number(offset, 4).map { Int($0) } }
    /// Nil too for a value above Int.max: no offset in a file held in memory is that large.
    public func u64(_ offset: Int) -> Int? {
        guard let value = number(offset, 8), value <= UInt64(Int.max) else { return nil }
        return Int(value)
    }

    /// Whether the bytes at `offset` are `expected`.
    public func matches(_ expected: [UInt8], at offset: Int = 0) -> Bool {
        guard contains(offset, expected.count) else { return false }
        for (index, byte) in expected.enumerated() where bytes[offset + index] != byte { return false }
        return true
    }

    /// Four bytes as text (a chunk or box type).
    public func fourCC(_ offset: Int) -> String? {
        guard contains(offset, 4) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + 4)]), as: UTF8.self)
    }

    /// Text up to a NUL or `length` bytes.
    public func text(_ offset: Int, _ length: Int) -> String? {
        guard contains(offset, length) else { return nil }
        let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)])
        return String(decoding: slice.prefix { $0 != 0 }, as: UTF8.self)
    }
}

extension Array where Element == UInt8 {
    /// `body` with a reader over the array's bytes.
    public func withReader<T>(littleEndian: Bool = false, _ body: (ByteReader) -> T) -> T {
        withUnsafeBytes { body(ByteReader($0, littleEndian: littleEndian)) }
    }
}
