// A thin SQLite layer: statements with bound parameters (never text spliced into SQL) and
// SQLite's result codes turned into the library's errors.

import CSQLite
import POSIXFiles
import StartupTrace
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One connection. Not thread-safe by itself: `Library` owns it behind a mutex.
final class Database {
    let handle: OpaquePointer
    let path: String
    /// The folder named in messages about writing.
    let folder: String
    /// Commits made through this connection; with `PRAGMA data_version` (other
    /// connections' commits) it tells whether the search index is still current. Atomic,
    /// though only touched under `Library`'s mutex: ThreadSanitizer cannot see that
    /// mutex's futex hand-over and took the plain counter's writes for a race.
    private let commitCount = Atomic<Int64>(0)
    var commits: Int64 { commitCount.load(ordering: .relaxed) }
    /// The search index of the library as of `searchIndexKey`, built on demand.
    var searchIndex: SearchIndex?
    var searchIndexKey: ContentVersion?
    /// The entries this connection's commits changed since `searchIndexKey`: the index
    /// follows them by reading those rows alone. Nil when a commit changed more than the
    /// update hook keeps (a bulk insert): the index is read whole again.
    var entriesChangedSinceIndex: Set<Int64>? = []
    /// A search index being made a step at a time: what was read so far, where the next
    /// step starts, and the other connections' commits it was read under.
    var partialSearchIndex: (builder: SearchIndex.Builder, after: (created: Int64, id: Int64)?, others: Int64)?
    /// Where SQLite's update hook notes the rows of `entries` the transaction under way
    /// changes. Allocated here, since SQLite keeps its address for the connection's life.
    private let changedRows = UnsafeMutablePointer<caption_changed_rows>.allocate(capacity: 1)

    /// How a connection reads the database: to write; to read only (the folder or the
    /// file system takes no writes, so SQLite's shared-memory file may not be made); or as
    /// a file nothing changes, which reads a write-ahead database whose shared-memory file
    /// cannot be opened either.
    enum Access {
        case readWrite, readOnly, immutable
    }

    init(path: String, folder: String, busyTimeout: Int32, access: Access = .readWrite) throws(LibraryError) {
        self.path = path
        self.folder = folder
        try Self.requireSQLite()
        var handle: OpaquePointer?
        // NOMUTEX: the Library's own mutex serialises every use of the connection.
        let flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let code: Int32
        switch access {
        case .readWrite:
            code = sqlite3_open_v2(path.pathBytes, &handle, flags | SQLITE_OPEN_READWRITE, nil)
        case .readOnly, .immutable:
            code = sqlite3_open_v2(
                Self.uri(path, immutable: access == .immutable), &handle,
                flags | SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil)
        }
        guard code == SQLITE_OK, let handle else {
            let error =
                handle.map { Database.error(code, handle: $0, path: path, folder: folder) }
                ?? LibraryError.make(
                    .io, "The library could not be opened ({reason}): {file}",
                    ["reason": String(cString: sqlite3_errstr(code)), "file": path])
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        changedRows.initialize(to: caption_changed_rows())
        caption_note_entry_changes(handle, changedRows)
        StartupTrace.mark("library-opened")
        sqlite3_busy_timeout(handle, busyTimeout)
        if access == .readWrite && sqlite3_db_readonly(handle, "main") == 1 {
            throw LibraryError.make(
                .readOnly, "Cannot write to the library ({reason}): {folder}",
                ["reason": POSIXFiles.reason(EACCES), "folder": folder])
        }
    }

    deinit {
        sqlite3_close_v2(handle)
        changedRows.deallocate()
    }

    /// Opens SQLite, the first time (see its shim). Without it no library in a folder can be
    /// read, and nothing else would name what is missing; a library is checked for it before
    /// anything of it is made.
    static func requireSQLite() throws(LibraryError) {
        guard let failure = caption_sqlite_open() else { return }
        throw LibraryError.make(
            .io,
            "The library could not be opened: the SQLite library could not be loaded ({reason}); reinstalling Caption should bring it back",
            ["reason": String(cString: failure)])
    }

    /// A `file:` URI for `path`, opened read-only: characters the URI syntax gives a
    /// meaning to are escaped, so any file name reaches SQLite as it is.
    static func uri(_ path: String, immutable: Bool) -> String {
        var escaped = ""
        for byte in FilePath.bytes(path) {
            switch byte {
            case UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "%"), 0x80...0xFF, 0...0x20:
                escaped += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            default:
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return "file:" + escaped + (immutable ? "?immutable=1" : "?mode=ro")
    }

    func execute(_ sql: String) throws(LibraryError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        sqlite3_free(message)
        if code != SQLITE_OK { throw failure(code) }
    }

    func prepare(_ sql: String) throws(LibraryError) -> Statement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code) }
        return Statement(statement, database: self)
    }

    /// The single integer a query such as a PRAGMA returns.
    func integer(_ sql: String) throws(LibraryError) -> Int64 {
        let statement = try prepare(sql)
        guard try statement.step() else { return 0 }
        return statement.integer(0)
    }

    /// The single text a query returns; empty when it returns no row.
    func text(_ sql: String) throws(LibraryError) -> String {
        let statement = try prepare(sql)
        guard try statement.step() else { return "" }
        return statement.text(0)
    }

    /// Runs `body` in a write transaction taken at once (BEGIN IMMEDIATE), so two writers
    /// wait for each other through the busy timeout instead of failing on an upgrade.
    func write<T>(_ body: () throws(LibraryError) -> T) throws(LibraryError) -> T {
        try execute("BEGIN IMMEDIATE")
        changedRows.pointee.count = 0
        changedRows.pointee.overflowed = 0
        do {
            let result = try body()
            try execute("COMMIT")
            commitCount.add(1, ordering: .relaxed)
            noteCommittedChanges()
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
            throw error
        }
    }

    private func noteCommittedChanges() {
        let rows = changedRows.pointee
        guard rows.overflowed == 0, var changed = entriesChangedSinceIndex else {
            entriesChangedSinceIndex = nil
            return
        }
        withUnsafeBytes(of: rows.ids) { ids in
            for row in ids.bindMemory(to: Int64.self).prefix(Int(rows.count)) { changed.insert(row) }
        }
        entriesChangedSinceIndex = changed
    }

    func failure(_ code: Int32) -> LibraryError {
        Database.error(code, handle: handle, path: path, folder: folder)
    }

    /// EMFILE or ENFILE when this process can open no more files, else nil.
    static func descriptorsExhausted() -> Int32? {
        let probe = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard probe < 0 else {
            close(probe)
            return nil
        }
        let code = errno
        return code == EMFILE || code == ENFILE ? code : nil
    }

    /// One line naming the problem, from an extended result code and the OS error behind it.
    static func error(_ code: Int32, handle: OpaquePointer, path: String, folder: String) -> LibraryError {
        let primary = code & 0xFF
        let system = sqlite3_system_errno(handle)
        let detail = String(cString: sqlite3_errmsg(handle))
        // Out of file descriptors, SQLite cannot open the database, its journal or its
        // shared memory, and says so in ways that read as a lock ("busy", its errno not
        // kept) or damage: whether one more file can be opened tells.
        if let exhausted = system == EMFILE || system == ENFILE ? system : Database.descriptorsExhausted() {
            return .make(
                .io, "Too many files are open to use the library ({reason}); close some, or raise the limit: {file}",
                ["reason": POSIXFiles.reason(exhausted), "file": path])
        }
        switch primary {
        case SQLITE_BUSY, SQLITE_LOCKED:
            return .make(
                .locked, "The library is in use by another program and stayed locked; try again: {file}",
                ["file": path])
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            return .make(.corrupt, "The library database is damaged; it was left as it is: {file}", ["file": path])
        case SQLITE_FULL:
            return .make(
                .diskFull, "Not enough disk space for the library ({reason}): {folder}",
                ["reason": POSIXFiles.reason(ENOSPC), "folder": folder])
        case SQLITE_READONLY, SQLITE_PERM, SQLITE_AUTH:
            return .make(
                .readOnly, "Cannot write to the library ({reason}): {folder}",
                ["reason": POSIXFiles.reason(system != 0 ? system : EACCES), "folder": folder])
        default:
            if system == ENOSPC || system == EDQUOT || system == EFBIG {
                return .make(
                    .diskFull, "Not enough disk space for the library ({reason}): {folder}",
                    ["reason": POSIXFiles.reason(system), "folder": folder])
            }
            if system == EACCES || system == EROFS || system == EPERM {
                return .make(
                    .readOnly, "Cannot write to the library ({reason}): {folder}",
                    ["reason": POSIXFiles.reason(system), "folder": folder])
            }
            return .make(
                .io, "The library could not be read or written ({reason}): {file}",
                ["reason": detail, "file": path])
        }
    }
}

/// A prepared statement; finalised when released.
final class Statement {
    private let handle: OpaquePointer
    private unowned let database: Database

    init(_ handle: OpaquePointer, database: Database) {
        self.handle = handle
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(handle, index, value)
    }

    func bind(_ index: Int32, _ value: String) {
        var value = value
        value.withUTF8 { bytes in
            // A nil pointer would bind SQL NULL; the empty string must stay a string.
            if let base = bytes.baseAddress {
                _ = sqlite3_bind_text(
                    handle, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                    Int32(bytes.count), caption_sqlite_transient())
            } else {
                _ = sqlite3_bind_text(handle, index, "", 0, caption_sqlite_transient())
            }
        }
    }

    /// True while there is a row to read.
    func step() throws(LibraryError) -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw database.failure(code)
    }

    /// Binds the text, or SQL NULL for nil.
    func bind(_ index: Int32, _ value: String?) {
        if let value { bind(index, value) } else { bind(index, null: ()) }
    }

    func bind(_ index: Int32, null: Void) {
        sqlite3_bind_null(handle, index)
    }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func integer(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    /// The column's UTF-8 bytes, valid until the next step or reset.
    func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8> {
        guard let bytes = sqlite3_column_text(handle, column) else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column)))
    }

    /// The column's text, or nil where it is SQL NULL.
    func optionalText(_ column: Int32) -> String? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : text(column)
    }

    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
