// A library on a PostgreSQL server: the entries and the photos' bytes, which a folder
// library keeps in its SQLite database and photos/ folder, kept on the server; and the
// photos this machine has needed, kept in a cache folder of its own.

import CaptionText
import POSIXFiles
import PhotoFormats
import Threads

#if canImport(Glibc)
    import Glibc
#endif

/// A library on a server. Safe to use from any thread: the connection sits behind a lock,
/// as a folder library's does.
final class PostgresStorage: LibraryStorage {
    let address: PostgresAddress
    /// The library's identity, the same for every editor.
    let identity: String
    /// This machine's cache of the library's photos, `<cache>/server-<identity>`: the
    /// photos are named as in a folder library (`photos/<sha256>.<ext>`).
    let directory: String
    let photos: PhotoFolder
    let state: Locked<Connection>
    /// Whether each entry carries the number of the commit that last changed it, so that
    /// the search index can be brought up to date with what changed.
    let numbersChanges: Bool
    /// The claims this process holds and waits on (PostgresStorage+Claims).
    let book = Locked(ClaimBook())

    /// The connection and what is known through it.
    struct Connection {
        var db: PostgresConnection
        /// Commits made through this connection, so that `changeCounter` counts only
        /// others', as a folder library's does.
        var commits: Int64 = 0
        /// The search index, the version it was read at, and the commit number it holds
        /// every change up to (see `PostgresSchema.changeStamps`).
        var searchIndex: (version: ContentVersion, index: SearchIndex, through: Int64)?
        /// How many times the index was read whole: once, where the server numbers
        /// commits; after every other editor's save where it does not.
        var indexReadsWhole = 0
        var losesAnswerToCommit = false
        let noticeToken: String
    }

    /// What this connection's commits say in their notices, so that its own notices are
    /// told from other editors'.
    let noticeToken = String(UInt64.random(in: 0...UInt64.max), radix: 16)

    /// The channel every commit notifies (LISTEN/NOTIFY): an editor's window hears the
    /// others' saves, edits and deletions as they commit, with nothing polling.
    static let noticeChannel = "caption_changes"

    /// How many entries a page of a stream reads at once: the stream costs the same memory
    /// for ten entries or a million, and the connection is free between pages.
    static let pageSize = 1000

    /// Connects, and makes the library or brings it up to date; its photos are cached in a
    /// folder under `cache`.
    init(_ address: PostgresAddress, cache: String) throws(LibraryError) {
        let connection = try PostgresConnection(address)
        identity = try PostgresSchema.prepare(connection)
        // The identity names a folder here: only what Caption makes (32 hex digits) will do.
        guard identity.utf8.count == 32, identity.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
        else {
            throw .make(
                .notALibrary, "Not a Caption library database; it was left as it is: {file}",
                ["file": address.description])
        }
        self.address = address
        directory = Files.absolute(cache) + "/server-" + identity
        photos = PhotoFolder(path: directory + "/photos", library: directory)
        if let code = POSIXFiles.makeFolders(photos.path, mode: 0o700) {
            throw PhotoFolder.folderError(code, directory)
        }
        numbersChanges = try PostgresSchema.readsChangeStamps(connection)
        state = Locked(Connection(db: connection, noticeToken: noticeToken))
        try forgetRemovedPhotos(connection)
    }

    /// Takes out of the cache the photos the server no longer has (another editor removed
    /// their last entry): a deleted photo does not linger on every machine that showed it.
    /// Leftover temporary files of an interrupted fetch go too; other files are left.
    private func forgetRemovedPhotos(_ db: PostgresConnection) throws(LibraryError) {
        guard let folder = Files.Folder(photos.path), folder.tryLockExclusive(), let names = Files.list(photos.path)
        else { return }
        var cached: [String: String] = [:]  // sha256 → file name
        for name in names where folder.isRegularFile(name) {
            if name.hasPrefix(PhotoFolder.temporaryPrefix) {
                folder.remove(name)
            } else if PhotoFolder.isPhotoName(name) {
                cached[String(name.prefix(64))] = name
            }
        }
        guard !cached.isEmpty else { return }
        let kept = try db.execute(
            "SELECT sha256 FROM caption.photos WHERE sha256 = ANY($1::text[])",
            ["{" + cached.keys.joined(separator: ",") + "}"])
        for row in 0..<kept.rowCount { cached[kept.text(row, 0) ?? ""] = nil }
        for name in cached.values { folder.remove(name) }
    }

    /// The columns of an entry, in `entry(_:_:)`'s order: a folder library's.
    static let columns = Library.columns

    static func entry(_ rows: PostgresResult, _ row: Int) -> Entry { Entry(columns: PostgresRow(rows: rows, row: row)) }

    static func entries(_ rows: PostgresResult) -> [Entry] { (0..<rows.rowCount).map { entry(rows, $0) } }

    /// The credits' values in `Library.creditColumns`' order: NULL for a credit not given.
    static func values(_ credits: Credits) -> [PostgresValue] {
        CreditField.allCases.map { credits.setFields.contains($0) ? .text(credits[$0]) : .null }
            + [.text(credits.replacesPhotos ? "true" : "false"), credits.pad.map(PostgresValue.text) ?? .null]
    }

    // MARK: Writing

    /// Runs `body` in one transaction that also counts the change, so every connection's
    /// `contentVersion` moves when it commits. The count is the transaction's last step, so
    /// that every writer takes the row locks in one order (entry and photo, then the count)
    /// and no two of them wait for each other.
    private func write<T>(_ body: (PostgresConnection) throws(LibraryError) -> T) throws(LibraryError) -> T {
        try state.withLock { (state) throws(LibraryError) -> T in
            try reconnectIfLost(&state)
            return try Self.transaction(&state, body)
        }
    }

    /// A connection the server ended (restarted, or the network was gone) is made anew, so
    /// that the next save after a fault goes through without a restart of Caption. Nothing
    /// of this connection's lasts beyond it but the count of its own commits, which stays.
    func reconnectIfLost(_ state: inout Connection) throws(LibraryError) {
        guard !state.db.isOpen else { return }
        state.db = try PostgresConnection(address)
    }

    /// For tests: the next commit goes through and its answer is lost, as when the server
    /// or the network goes at that moment.
    func loseTheAnswerToTheNextCommit() {
        state.withLock { $0.losesAnswerToCommit = true }
    }

    private static func transaction<T>(
        _ state: inout Connection, _ body: (PostgresConnection) throws(LibraryError) -> T
    ) throws(LibraryError) -> T {
        let db = state.db
        let value = try db.write { () throws(LibraryError) -> T in
            let value = try body(db)
            // Both last, in this order: the notice goes out at the commit, and the counter
            // is the last row locked.
            try db.execute("SELECT pg_notify($1, $2)", [Self.noticeChannel, state.noticeToken])
            try db.execute("UPDATE caption.library SET changes = changes + 1")
            return value
        }
        state.commits += 1
        if state.losesAnswerToCommit {
            state.losesAnswerToCommit = false
            try? db.execute("SELECT pg_terminate_backend(pg_backend_pid())")
            throw PostgresConnection.unreachable(db.address, reason: "the answer to the commit was lost")
        }
        return value
    }

    /// Reads, tried once more on a new connection when the server ended the old one: a
    /// read repeated changes nothing.
    func read<T>(_ body: (PostgresConnection) throws(LibraryError) -> T) throws(LibraryError) -> T {
        try state.withLock { (state) throws(LibraryError) -> T in
            try reconnectIfLost(&state)
            do throws(LibraryError) {
                return try body(state.db)
            } catch  where error.kind == .unreachable && !state.db.isOpen {
                try reconnectIfLost(&state)
                return try body(state.db)
            }
        }
    }

    func add(
        _ photo: LoadedPhoto, words: CaptionWords, credits: Credits, editor: Editor?
    ) throws(LibraryError)
        -> Entry
    {
        let entry = try add(
            sha256: photo.sha256, format: photo.info.format, bytes: photo.bytes, words: words,
            width: photo.info.width, height: photo.info.height, originalName: Files.baseName(photo.path),
            credits: credits, editor: editor)
        // The photo is at hand: the cache keeps it now rather than fetching it when first
        // shown. A cache that cannot be written costs a fetch later, not the save.
        _ = try? photo.bytes.withBytes { (data) throws(LibraryError) in
            _ = try photos.place(data, at: directory + "/" + entry.photo)
        }
        return entry
    }

    /// Saves a photo's bytes (once for every entry of the same photo) and an entry for it,
    /// in one transaction: an entry is never without its photo.
    func add(
        sha256: String, format: PhotoFormat, bytes: [UInt8], words: CaptionWords, width: Int, height: Int,
        originalName: String, credits: Credits, editor: Editor? = nil
    ) throws(LibraryError) -> Entry {
        let name = "photos/\(sha256).\(format.fileExtension)"
        let now = Timestamp.now()
        let values = Self.entryValues(
            name: name, sha256: sha256, words: words, width: width, height: height, originalName: originalName,
            created: now, credits: credits)
        let id: Int64
        do throws(LibraryError) {
            id = try saveEntry(
                sha256: sha256, format: format, bytes: bytes, values: values, created: now, words: words, editor: editor
            )
            if let editor { book.withLock { $0.saved(sha256, editor) } }
        } catch {
            if let editor { book.withLock { $0.saveFailed(sha256, editor, error.kind) } }
            throw error
        }
        return Entry(
            id: id, words: words, photo: name, width: width, height: height, originalName: originalName, created: now,
            updated: now, credits: credits)
    }

    /// The transaction of `add`: the claim, the photo's bytes and the entry.
    private func saveEntry(
        sha256: String, format: PhotoFormat, bytes: [UInt8], values: [PostgresValue], created now: Timestamp,
        words: CaptionWords, editor: Editor?
    ) throws(LibraryError) -> Int64 {
        try state.withLock { (state) throws(LibraryError) -> Int64 in
            try reconnectIfLost(&state)
            var attempt = 0
            while true {
                attempt += 1
                do throws(LibraryError) {
                    return try Self.transaction(&state) { (db) throws(LibraryError) -> Int64 in
                        // The claim is taken first, so that a save and another editor's
                        // claim of the same photo wait for each other: the claim that
                        // follows finds the photo captioned.
                        if let editor,
                            let holder = try Self.take(
                                db, sha256: sha256, for: editor,
                                outliving: book.withLock { $0.isWaiting(sha256, editor) })
                        {
                            throw Library.takenElsewhere(by: holder)
                        }
                        try db.execute(
                            "INSERT INTO caption.photos (sha256, format, bytes) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING",
                            values: [.text(sha256), .text(format.fileExtension), .bytes(bytes)])
                        let id = try db.execute(Self.insertEntry + " RETURNING id", values: values).integer(0, 0) ?? 0
                        if editor != nil {
                            try db.execute("DELETE FROM caption.leases WHERE photo_sha256 = $1", [sha256])
                        }
                        return id
                    }
                } catch  where error.kind == .unreachable {
                    // The connection went during the save: whether the commit was made is
                    // known only to the server. Asked again, it says, so that a save the
                    // user repeats is never kept twice and one that went in is not lost;
                    // one that did not go in is made on the new connection (the old one
                    // was ended by a restart the save was the first to find).
                    guard (try? reconnectIfLost(&state)) != nil,
                        case .success(let saved) = Result(catching: { () throws(LibraryError) in
                            try Self.savedEntry(state.db, sha256: sha256, created: now, words: words)
                        })
                    else { throw error }
                    if let saved { return saved }
                    guard attempt < 3 else { throw error }
                } catch  where error.kind != .takenElsewhere {
                    // Another editor removed the last entry of this photo, and with it the
                    // photo, between the two inserts: the photo goes in again.
                    guard state.db.lastFailure == "23503" && attempt < 3 else { throw error }
                }
            }
        }
    }

    /// The number of the entry a save made, if it was committed: the same photo, words and
    /// time to the millisecond, which this machine's clock gave it.
    private static func savedEntry(
        _ db: PostgresConnection, sha256: String, created: Timestamp, words: CaptionWords
    ) throws(LibraryError) -> Int64? {
        var values: [String?] = [sha256, String(created.millisecondsSince1970)]
        var conditions = ["photo_sha256 = $1", "created = $2"]
        for field in CaptionField.allCases {
            values.append(words[field])
            conditions.append("\(field.rawValue) = $\(values.count)")
        }
        let rows = try db.execute(
            "SELECT id FROM caption.entries WHERE \(conditions.joined(separator: " AND ")) ORDER BY id LIMIT 1", values)
        return rows.rowCount == 1 ? rows.integer(0, 0) : nil
    }

    /// `INSERT INTO caption.entries` with the values `entryValues` gives.
    static let insertEntry =
        insertColumns + " VALUES ("
        + (1...(7 + CaptionField.allCases.count + Library.creditColumnNames.count)).map { "$\($0)" }
        .joined(separator: ", ") + ")"

    static let insertColumns = """
        INSERT INTO caption.entries (photo, photo_sha256, \(Library.fieldColumns), width, height, original_name,
            created, updated, \(Library.creditColumns))
        """

    static func entryValues(
        name: String, sha256: String, words: CaptionWords, width: Int, height: Int, originalName: String,
        created: Timestamp, credits: Credits
    ) -> [PostgresValue] {
        var values: [PostgresValue] = [.text(name), .text(sha256)]
        values += CaptionField.allCases.map { .text(words[$0]) }
        values += [
            .text(String(width)), .text(String(height)), .text(originalName),
            .text(String(created.millisecondsSince1970)), .text(String(created.millisecondsSince1970)),
        ]
        return values + Self.values(credits)
    }

    func update(
        id: Int64, words: CaptionWords, credits: Credits?, unchangedSince: Timestamp?
    ) throws(LibraryError)
        -> Entry
    {
        var values = CaptionField.allCases.map { PostgresValue.text(words[$0]) }
        var assignments = CaptionField.allCases.enumerated().map { "\($1.rawValue) = $\($0 + 1)" }
        if let credits {
            for (column, value) in zip(Library.creditColumnNames, Self.values(credits)) {
                values.append(value)
                assignments.append("\(column) = $\(values.count)")
            }
        }
        values.append(.text(String(Timestamp.now().millisecondsSince1970)))
        assignments.append("updated = $\(values.count)")
        values.append(.text(String(id)))
        var condition = "id = $\(values.count)"
        if let unchangedSince {
            values.append(.text(String(unchangedSince.millisecondsSince1970)))
            condition += " AND updated = $\(values.count)"
        }
        return try changed(
            id,
            "UPDATE caption.entries SET \(assignments.joined(separator: ", ")) WHERE \(condition) RETURNING \(Self.columns)",
            values)
    }

    func setSource(id: Int64, path: String?, sha256: String?) throws(LibraryError) -> Entry {
        try changed(
            id, "UPDATE caption.entries SET source = $1, source_sha256 = $2 WHERE id = $3 RETURNING \(Self.columns)",
            [path.map(PostgresValue.text) ?? .null, sha256.map(PostgresValue.text) ?? .null, .text(String(id))])
    }

    private func changed(_ id: Int64, _ sql: String, _ values: [PostgresValue]) throws(LibraryError) -> Entry {
        try write { (db) throws(LibraryError) -> Entry in
            let rows = try db.execute(sql, values: values)
            guard rows.rowCount == 1 else {
                let current = try db.execute("SELECT \(Self.columns) FROM caption.entries WHERE id = $1", [String(id)])
                guard current.rowCount == 1 else { throw Library.noSuchEntry(id) }
                throw Library.changedElsewhere(Self.entry(current, 0))
            }
            return Self.entry(rows, 0)
        }
    }

    /// Its photo's bytes go too when no other entry uses them, and then this machine's
    /// cached copy. An entry another editor saves with the same photo at that moment keeps
    /// them: the key refuses the photo's removal, and the removal of the entry alone stands.
    func remove(id: Int64) throws(LibraryError) -> Entry {
        let (entry, photoGone) = try write { (db) throws(LibraryError) -> (Entry, Bool) in
            let rows = try db.execute(
                "DELETE FROM caption.entries WHERE id = $1 RETURNING \(Self.columns), photo_sha256", [String(id)])
            guard rows.rowCount == 1, let sha256 = rows.text(0, rows.columnCount - 1) else {
                throw Library.noSuchEntry(id)
            }
            try db.execute("SAVEPOINT photo")
            var removed = false
            do throws(LibraryError) {
                removed =
                    try db.execute(
                        """
                        DELETE FROM caption.photos WHERE sha256 = $1
                        AND NOT EXISTS (SELECT 1 FROM caption.entries WHERE photo_sha256 = $1) RETURNING sha256
                        """, [sha256]
                    ).rowCount == 1
                try db.execute("RELEASE SAVEPOINT photo")
            } catch {
                // Only the key's refusal (another editor's entry uses the photo) is
                // expected here; anything else fails the removal.
                guard db.lastFailure == "23503" else { throw error }
                try db.execute("ROLLBACK TO SAVEPOINT photo")
            }
            return (Self.entry(rows, 0), removed)
        }
        if photoGone, PhotoFolder.isStoredPhoto(entry.photo) { _ = unlink(directory + "/" + entry.photo) }
        return entry
    }

    /// Rows go in 500 to a statement: a hundred thousand in some seconds, not minutes of
    /// round trips.
    func insertCopies(of entry: Entry, count: Int, caption: (@Sendable (Int) -> CaptionWords)?) throws(LibraryError) {
        let sha256 = String(entry.photo.dropFirst("photos/".count).prefix(64))
        let batch = 500
        try write { (db) throws(LibraryError) in
            var start = 0
            while start < count {
                let end = min(count, start + batch)
                var values: [PostgresValue] = []
                var rows: [String] = []
                for index in start..<end {
                    var numbered = entry.words
                    numbered.title += " \(index)"
                    var row = Self.entryValues(
                        name: entry.photo, sha256: sha256, words: caption?(index) ?? numbered, width: entry.width,
                        height: entry.height, originalName: entry.originalName,
                        created: Timestamp(
                            millisecondsSince1970: entry.created.millisecondsSince1970 - Int64(count - index)),
                        credits: entry.credits)
                    row[2 + CaptionField.allCases.count + 4] = .text(  // updated
                        String(entry.updated.millisecondsSince1970 - Int64(count - index)))
                    let first = values.count + 1
                    rows.append("(" + (first..<(first + row.count)).map { "$\($0)" }.joined(separator: ", ") + ")")
                    values += row
                }
                try db.execute(Self.insertColumns + " VALUES " + rows.joined(separator: ", "), values: values)
                start = end
            }
        }
    }
}
