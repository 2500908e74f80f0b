// What crosses libpq besides the connection: a statement's values and its rows.

import CPostgres

#if canImport(Glibc)
    import Glibc
#endif

/// A value for a statement's parameter.
enum PostgresValue {
    case text(String)
    case null
    /// Sent as they are, for a bytea.
    case bytes([UInt8])
}

/// A statement's rows, every value as text (or nil for NULL); the PGresult is freed with it.
final class PostgresResult {
    private let handle: OpaquePointer
    private let libpq: UnsafePointer<caption_libpq>
    let rowCount: Int
    let columnCount: Int

    init(_ handle: OpaquePointer, libpq: UnsafePointer<caption_libpq>) {
        self.handle = handle
        self.libpq = libpq
        rowCount = Int(libpq.pointee.ntuples!(handle))
        columnCount = Int(libpq.pointee.nfields!(handle))
    }

    deinit { libpq.pointee.clear!(handle) }

    /// The value in `row` and `column`, or nil where it is NULL.
    func text(_ row: Int, _ column: Int) -> String? {
        guard libpq.pointee.getisnull!(handle, Int32(row), Int32(column)) == 0,
            let value = libpq.pointee.getvalue!(handle, Int32(row), Int32(column))
        else { return nil }
        let length = Int(libpq.pointee.getlength!(handle, Int32(row), Int32(column)))
        return value.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    /// The integer a column's text form says, read from libpq's bytes (a String per value
    /// cost a twentieth of a listing); nil for NULL or anything but an integer.
    func integer(_ row: Int, _ column: Int) -> Int64? {
        guard libpq.pointee.getisnull!(handle, Int32(row), Int32(column)) == 0 else { return nil }
        return withBytes(row, column, CopyRow.integer)
    }

    /// Runs `body` with the value's bytes where libpq keeps them (empty for NULL), sparing a
    /// String per value when a hundred thousand are read.
    func withBytes<T>(_ row: Int, _ column: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        guard let value = libpq.pointee.getvalue!(handle, Int32(row), Int32(column)) else {
            return body(UnsafeBufferPointer(start: nil, count: 0))
        }
        let length = Int(libpq.pointee.getlength!(handle, Int32(row), Int32(column)))
        return value.withMemoryRebound(to: UInt8.self, capacity: length) {
            body(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// The value's bytes as the server sent them: a bytea's own, in a binary result.
    func bytes(_ row: Int, _ column: Int) -> [UInt8]? {
        guard libpq.pointee.getisnull!(handle, Int32(row), Int32(column)) == 0,
            let value = libpq.pointee.getvalue!(handle, Int32(row), Int32(column))
        else { return nil }
        let length = Int(libpq.pointee.getlength!(handle, Int32(row), Int32(column)))
        return Array(UnsafeRawBufferPointer(start: value, count: length))
    }
}
