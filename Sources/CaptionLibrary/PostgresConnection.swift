// A thin libpq layer, the PostgreSQL counterpart of `Database`: statements with their
// values passed apart from the SQL (never text spliced into it), results as Swift values,
// and the server's SQLSTATE codes turned into the library's errors.

import CPostgres
import Localization

#if canImport(Glibc)
    import Glibc
#endif

/// One connection to the server. Not thread-safe by itself: its owner keeps it behind a
/// lock, as `Library` keeps its SQLite connection.
final class PostgresConnection {
    /// The PGconn.
    private let handle: OpaquePointer
    private let libpq: UnsafePointer<caption_libpq>
    let address: PostgresAddress
    /// The SQLSTATE of the last statement that failed, for a caller that answers one
    /// failure by trying again.
    private(set) var lastFailure = ""

    init(_ address: PostgresAddress) throws(LibraryError) {
        guard let libpq = caption_libpq() else { throw PostgresAddress.noClient }
        // Every function pointer below is non-nil: the shim sets `loaded` only when all are.
        guard let handle = Self.connect(address, libpq) else {
            throw Self.unreachable(address, reason: tr("out of memory"))
        }
        guard libpq.pointee.status!(handle) == CONNECTION_OK else {
            let reason = Self.firstLine(libpq.pointee.error_message!(handle))
            let user = libpq.pointee.user!(handle).map { String(cString: $0) } ?? ""
            let needed = libpq.pointee.needs_password!(handle) != 0
            let used = libpq.pointee.used_password!(handle) != 0
            libpq.pointee.finish!(handle)
            // A password is the user's to fix, not the network: said apart from a server that
            // is not there. (libpq tells a missing password; a refused one is told by the
            // server's words, in English when libpq's messages are.)
            if needed {
                throw .make(
                    .unreachable,
                    "The server asks for {user}'s password and none was found; put it in ~/.pgpass or a service file: {server}",
                    ["user": user, "server": address.description])
            }
            if used && reason.contains("password authentication failed") {
                throw .make(
                    .unreachable,
                    "The server did not accept {user}'s password (from ~/.pgpass, a service file or PGPASSWORD); correct it there: {server}",
                    ["user": user, "server": address.description])
            }
            throw Self.unreachable(address, reason: reason)
        }
        caption_pg_quiet(libpq, handle)
        // Statements are sent and waited for here, with a deadline, never inside libpq.
        _ = libpq.pointee.set_nonblocking!(handle, 1)
        self.handle = handle
        self.libpq = libpq
        self.address = address
    }

    deinit { libpq.pointee.finish!(handle) }

    /// How long a connection may take, and how long a statement may go without a byte from
    /// the server, before the server is called unreachable: a server frozen or a link cut
    /// without a word looks like a slow answer, and an editor must hear about it in seconds,
    /// not after the system's TCP timeouts (minutes). Long work sends nothing while it
    /// runs, so the schema's steps are given `patientSeconds`.
    static let connectSeconds = 5
    static let answerSeconds = 5
    static let patientSeconds = 600
    /// The deadline of the statements run now; see `patiently`.
    private var answerSeconds = PostgresConnection.answerSeconds

    /// Runs `body` with statements that may take up to `patientSeconds` to answer.
    func patiently<T>(_ body: () throws(LibraryError) -> T) throws(LibraryError) -> T {
        answerSeconds = Self.patientSeconds
        defer { answerSeconds = Self.answerSeconds }
        return try body()
    }

    /// Connects with the address's own settings, after Caption's defaults: a connection that
    /// gives up after `connectSeconds` (unless the address or PGCONNECT_TIMEOUT says), and
    /// TCP keepalives and a user timeout that notice a link gone within seconds. A later
    /// keyword wins in libpq, so the address comes last.
    private static func connect(_ address: PostgresAddress, _ libpq: UnsafePointer<caption_libpq>) -> OpaquePointer? {
        var settings: [(String, String)] = [
            ("keepalives", "1"), ("keepalives_idle", "5"), ("keepalives_interval", "2"), ("keepalives_count", "3"),
            ("tcp_user_timeout", String(answerSeconds * 2000)),
        ]
        if getenv("PGCONNECT_TIMEOUT") == nil { settings.append(("connect_timeout", String(connectSeconds))) }
        settings.append(("dbname", address.connectionString))
        let keywords = settings.map { strdup($0.0) }
        let values = settings.map { strdup($0.1) }
        // strdup's, given back with free.
        defer { (keywords + values).forEach { free($0) } }
        // Both lists end in a null, as libpq reads them.
        return libpq.pointee.connectdb_params!(
            keywords.map { $0.map { UnsafePointer($0) } } + [nil], values.map { $0.map { UnsafePointer($0) } } + [nil],
            1)
    }

    /// Sends what `send` queued and waits for the statement's results, giving up when the
    /// server sends nothing for `answerSeconds`; returns the first result that failed (of a
    /// script), else the last, or nil when the connection failed or the server stayed silent
    /// (then `silent` says so).
    private func answer(sent: Bool) -> OpaquePointer? {
        silent = false
        guard sent, flushSent() else { return nil }
        var kept: OpaquePointer?
        while true {
            guard libpq.pointee.consume_input!(handle) == 1 else { break }
            // A result is whole when libpq has it; until then, the server has more to send.
            if libpq.pointee.is_busy!(handle) != 0 {
                guard waitForServer(POLLIN) else { break }
                continue
            }
            guard let result = libpq.pointee.get_result!(handle) else { return kept }
            if let kept, !isSuccess(kept) {
                libpq.pointee.clear!(result)
            } else {
                kept.map { libpq.pointee.clear!($0) }
                kept = result
            }
        }
        kept.map { libpq.pointee.clear!($0) }
        return nil
    }

    /// Sends whole what was queued; the server's answers are read meanwhile, as libpq asks.
    private func flushSent() -> Bool {
        var flushed = libpq.pointee.flush!(handle)
        while flushed == 1 {
            guard waitForServer(POLLIN | POLLOUT), libpq.pointee.consume_input!(handle) == 1 else { return false }
            flushed = libpq.pointee.flush!(handle)
        }
        return flushed == 0
    }

    /// Runs `COPY (…) TO STDOUT` (`sql`, in the text format) and hands each row's line to
    /// `row` as it comes, without its line end, in libpq's buffer: the server's own pace,
    /// with no result made per row (single-row mode made three copies of every row). Once
    /// `row` says no more, the rest is read and passed over. Memory stays flat for a
    /// million rows. Gives up, as `execute` does, when the server sends nothing for
    /// `answerSeconds`. Parameters cannot go in a COPY.
    func copyOut(_ sql: String, row: (UnsafeBufferPointer<UInt8>) -> Bool) throws(LibraryError) {
        lastFailure = ""
        silent = false
        guard libpq.pointee.send_query!(handle, sql) == 1, flushSent() else { throw connectionFailure() }
        var wanted = true
        var failed: OpaquePointer?
        var copying = false
        while true {
            if copying {
                var buffer: UnsafeMutablePointer<CChar>?
                let length = libpq.pointee.get_copy_data!(handle, &buffer, 1)
                if length > 0, let buffer {
                    defer { libpq.pointee.freemem!(buffer) }
                    guard wanted else { continue }
                    // Each row ends in a line feed.
                    let count = Int(length) - (buffer[Int(length) - 1] == 0x0A ? 1 : 0)
                    wanted = buffer.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
                        row(UnsafeBufferPointer(start: $0, count: count))
                    }
                    continue
                }
                if length == 0 {
                    guard waitForServer(POLLIN), libpq.pointee.consume_input!(handle) == 1 else {
                        throw connectionFailure()
                    }
                    continue
                }
                // -1: the copy is over, its result follows; -2: it failed, and so does its result.
                copying = false
            }
            if libpq.pointee.is_busy!(handle) != 0 {
                guard waitForServer(POLLIN), libpq.pointee.consume_input!(handle) == 1 else {
                    throw connectionFailure()
                }
                continue
            }
            guard let result = libpq.pointee.get_result!(handle) else { break }
            switch libpq.pointee.result_status!(result) {
            case PGRES_COPY_OUT:
                copying = true
                libpq.pointee.clear!(result)
            case PGRES_COMMAND_OK:
                libpq.pointee.clear!(result)
            default:
                if failed == nil { failed = result } else { libpq.pointee.clear!(result) }
            }
        }
        if let failed {
            defer { libpq.pointee.clear!(failed) }
            throw failure(failed)
        }
    }

    private func isSuccess(_ result: OpaquePointer) -> Bool {
        let status = libpq.pointee.result_status!(result)
        return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK
    }

    /// Waits until the socket is ready for `events`; false when the server sent nothing for
    /// `answerSeconds` (then `silent`) or the wait failed.
    private func waitForServer(_ events: Int32) -> Bool {
        var watched = pollfd(fd: socket, events: Int16(events), revents: 0)
        while true {
            let ready = poll(&watched, 1, Int32(answerSeconds * 1000))
            if ready > 0 { return true }
            if ready < 0 && errno == EINTR { continue }
            silent = ready == 0
            return false
        }
    }

    /// The last statement ended because the server sent nothing for `answerSeconds`.
    private var silent = false

    /// Whether the connection still stands: after the server ended it (a restart, the
    /// network gone) every statement fails, and a new connection is needed.
    var isOpen: Bool { !lost && libpq.pointee.status!(handle) == CONNECTION_OK }
    /// A statement failed on the client's side: the connection is not to be used again.
    private var lost = false

    /// The connection's socket, for a main loop to wait on.
    var socket: Int32 { libpq.pointee.socket!(handle) }

    /// Reads what the server sent meanwhile and gives the payloads of the notices (NOTIFY)
    /// it held; nil when the connection is gone.
    func takeNotices() -> [String]? {
        var payloads: [String] = []
        // Until the socket has nothing more: a server that ends the connection sends its
        // last message first, and the end shows only at the read after it.
        var watched = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        repeat {
            guard libpq.pointee.consume_input!(handle) == 1, libpq.pointee.status!(handle) == CONNECTION_OK else {
                lost = true
                return nil
            }
            while let notice = libpq.pointee.notifies!(handle) {
                payloads.append(notice.pointee.extra.map { String(cString: $0) } ?? "")
                libpq.pointee.freemem!(notice)
            }
            watched.revents = 0
        } while poll(&watched, 1, 0) == 1
        return payloads
    }

    /// Runs `sql` with `parameters` as $1, $2, … (nil is SQL NULL), all sent as text.
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?] = []) throws(LibraryError) -> PostgresResult {
        try execute(sql, values: parameters.map { $0.map(PostgresValue.text) ?? .null })
    }

    /// Runs `sql` with `values` as $1, $2, …; with `binaryResult`, the rows come as the
    /// server keeps them (`PostgresResult.bytes`), which a bytea wants.
    @discardableResult
    func execute(
        _ sql: String, values: [PostgresValue], binaryResult: Bool = false
    ) throws(LibraryError)
        -> PostgresResult
    {
        lastFailure = ""
        // PostgreSQL's text holds no NUL, and libpq would cut a value there without a word.
        if values.contains(where: { if case .text(let text) = $0 { text.utf8.contains(0) } else { false } }) {
            throw LibraryError.make(
                .unstorableText,
                "The text holds a NUL character, which a PostgreSQL library cannot keep; nothing was saved: {server}",
                ["server": address.description])
        }
        guard let result = answer(sent: send(sql, values: values, binaryResult: binaryResult)) else {
            throw connectionFailure()
        }
        guard isSuccess(result) else {
            defer { libpq.pointee.clear!(result) }
            throw failure(result)
        }
        return PostgresResult(result, libpq: libpq)
    }

    /// Queues `sql` with `values` as $1, $2, …; false when libpq could not.
    private func send(_ sql: String, values: [PostgresValue], binaryResult: Bool) -> Bool {
        var pointers: [UnsafeMutablePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        for value in values {
            switch value {
            case .text(let text):
                pointers.append(strdup(text))
                lengths.append(0)
                formats.append(0)
            case .null:
                pointers.append(nil)
                lengths.append(0)
                formats.append(0)
            case .bytes(let bytes):
                let copy = malloc(max(bytes.count, 1))
                bytes.withUnsafeBytes { source in
                    if let copy, let base = source.baseAddress { copy.copyMemory(from: base, byteCount: bytes.count) }
                }
                pointers.append(copy?.assumingMemoryBound(to: CChar.self))
                lengths.append(Int32(bytes.count))
                formats.append(1)
            }
        }
        // strdup's and malloc's, both given back with free.
        defer { pointers.forEach { free($0) } }
        let sent = pointers.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { constant in
                libpq.pointee.send_query_params!(
                    handle, sql, Int32(values.count), nil, constant.baseAddress, lengths, formats, binaryResult ? 1 : 0)
            }
        }
        return sent == 1
    }

    /// Runs a script of several statements that take no values (a schema step), which
    /// `execute` cannot: libpq sends a statement with parameters alone.
    func run(_ script: String) throws(LibraryError) {
        lastFailure = ""
        guard let result = answer(sent: libpq.pointee.send_query!(handle, script) == 1) else {
            throw connectionFailure()
        }
        defer { libpq.pointee.clear!(result) }
        guard isSuccess(result) else { throw failure(result) }
    }

    /// Runs `body` in one transaction: all of it is kept, or none.
    func write<T>(_ body: () throws(LibraryError) -> T) throws(LibraryError) -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            // The rollback is a statement of its own: the failure it follows is the one to
            // report, and to retry on.
            let failed = lastFailure
            if libpq.pointee.transaction_status!(handle) != PQTRANS_IDLE { _ = try? execute("ROLLBACK") }
            lastFailure = failed
            throw error
        }
    }

    /// The error of a statement that failed: by its SQLSTATE, as `Database.error` goes by
    /// SQLite's result codes.
    private func failure(_ result: OpaquePointer) -> LibraryError {
        let code = libpq.pointee.result_error_field!(result, caption_pg_diag_sqlstate()).map { String(cString: $0) }
        lastFailure = code ?? ""
        let primary = libpq.pointee.result_error_field!(result, caption_pg_diag_message_primary())
        let reason = primary.map { String(cString: $0) } ?? Self.firstLine(libpq.pointee.result_error_message!(result))
        // A connection lost mid-statement fails on the client's side, with no SQLSTATE
        // (every error the server sends has one), and libpq may still call the connection
        // good when its write found the socket closed.
        if code == nil || libpq.pointee.status!(handle) != CONNECTION_OK {
            lost = true
            return Self.unreachable(address, reason: reason)
        }
        return Self.error(sqlState: code ?? "", reason: reason, address: address)
    }

    /// No result at all: the connection is gone, or the server went silent. A silent one is
    /// closed here: whatever it was doing is rolled back by the server when it finds the
    /// connection closed, and a save that waits asks again on a new connection.
    private func connectionFailure() -> LibraryError {
        lost = true
        guard !silent else {
            shutdown(socket, Int32(SHUT_RDWR))
            return Self.unreachable(
                address,
                reason: tr("no answer for {seconds} seconds").replacing("{seconds}", with: String(answerSeconds)))
        }
        return Self.unreachable(address, reason: Self.firstLine(libpq.pointee.error_message!(handle)))
    }

    static func error(sqlState code: String, reason: String, address: PostgresAddress) -> LibraryError {
        let server = address.description
        switch code {
        case "42501", "25006":  // insufficient_privilege, read_only_sql_transaction
            return .make(
                .readOnly, "Cannot write to the library ({reason}): {server}", ["reason": reason, "server": server])
        case "40001", "40P01", "55P03":  // serialization_failure, deadlock_detected, lock_not_available
            return .make(
                .locked, "The library is in use by another program and stayed locked; try again: {file}",
                ["file": server])
        case "53100":  // disk_full
            return .make(
                .diskFull, "Not enough disk space for the library ({reason}): {folder}",
                ["reason": reason, "folder": server])
        case _ where code.hasPrefix("08") || code.hasPrefix("28") || code == "3D000" || code.hasPrefix("57P"):
            // connection exceptions, authentication, no such database, the server shutting down
            return unreachable(address, reason: reason)
        default:
            return .make(
                .io, "The library could not be read or written ({reason}): {file}", ["reason": reason, "file": server])
        }
    }

    static func unreachable(_ address: PostgresAddress, reason: String) -> LibraryError {
        .make(
            .unreachable, "The library's server could not be reached ({reason}): {server}",
            ["reason": reason, "server": address.description])
    }

    /// libpq's messages end in a newline and may go on with hints; the first line says it.
    static func firstLine(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "" }
        return String(cString: message).split(separator: "\n").first.map(String.init) ?? ""
    }
}
