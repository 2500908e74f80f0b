// The entries of a library on a PostgreSQL server and its photos' bytes: what a folder
// library keeps in its SQLite database and its photos/ folder, kept on the server.

import CaptionText
import PhotoFormats
import Threads

/// A library's entries on a server. Safe to use from any thread: the connection sits
/// behind a lock, as a folder library's does.
final class PostgresEntries: Sendable {
    let address: PostgresAddress
    /// The library's identity, the same for every editor.
    let identity: String
    private let connection: Locked<PostgresConnection>

    /// Connects, and makes the library or brings it up to date.
    init(_ address: PostgresAddress) throws(LibraryError) {
        let connection = try PostgresConnection(address)
        identity = try PostgresSchema.prepare(connection)
        self.connection = Locked(connection)
        self.address = address
    }

    /// The columns of an entry, in `entry(_:_:)`'s order: a folder library's.
    static let columns = Library.columns

    static func entry(_ rows: PostgresResult, _ row: Int) -> Entry {
        var words = CaptionWords.empty
        for (offset, field) in CaptionField.allCases.enumerated() { words[field] = rows.text(row, 1 + offset) ?? "" }
        let next = 1 + CaptionField.allCases.count
        var credits = Credits()
        for (offset, field) in CreditField.allCases.enumerated() {
            credits[field] = rows.text(row, next + 8 + offset) ?? ""
        }
        credits.replacesPhotos = rows.text(row, next + 8 + CreditField.allCases.count) == "t"
        return Entry(
            id: rows.integer(row, 0) ?? 0, words: words, photo: rows.text(row, next) ?? "",
            width: Int(rows.integer(row, next + 1) ?? 0), height: Int(rows.integer(row, next + 2) ?? 0),
            originalName: rows.text(row, next + 3) ?? "",
            created: Timestamp(millisecondsSince1970: rows.integer(row, next + 4) ?? 0),
            updated: Timestamp(millisecondsSince1970: rows.integer(row, next + 5) ?? 0),
            source: rows.text(row, next + 6), sourceSHA256: rows.text(row, next + 7), credits: credits)
    }

    static func entries(_ rows: PostgresResult) -> [Entry] { (0..<rows.rowCount).map { entry(rows, $0) } }

    /// The credits' values in `Library.creditColumns`' order: NULL for a credit not given.
    static func values(_ credits: Credits) -> [PostgresValue] {
        CreditField.allCases.map { credits.setFields.contains($0) ? .text(credits[$0]) : .null }
            + [.text(credits.replacesPhotos ? "true" : "false")]
    }

    // MARK: Writing

    /// Saves a photo's bytes (once for every entry of the same photo) and an entry for it,
    /// in one transaction: an entry is never without its photo.
    func add(
        sha256: String, format: PhotoFormat, bytes: [UInt8], words: CaptionWords, width: Int, height: Int,
        originalName: String, credits: Credits
    ) throws(LibraryError) -> Entry {
        let name = "photos/\(sha256).\(format.fileExtension)"
        let now = Timestamp.now()
        var values: [PostgresValue] = [.text(name), .text(sha256)]
        values += CaptionField.allCases.map { .text(words[$0]) }
        values += [
            .text(String(width)), .text(String(height)), .text(originalName), .text(String(now.millisecondsSince1970)),
            .text(String(now.millisecondsSince1970)),
        ]
        values += Self.values(credits)
        let placeholders = (1...values.count).map { "$\($0)" }.joined(separator: ", ")
        let insert = """
            INSERT INTO caption.entries (photo, photo_sha256, \(Library.fieldColumns), width, height, original_name,
                created, updated, \(Library.creditColumns))
            VALUES (\(placeholders)) RETURNING id
            """
        let id = try connection.withLock { (db) throws(LibraryError) -> Int64 in
            var attempt = 0
            while true {
                attempt += 1
                do throws(LibraryError) {
                    return try db.write { () throws(LibraryError) -> Int64 in
                        try db.execute(
                            "INSERT INTO caption.photos (sha256, format, bytes) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING",
                            values: [.text(sha256), .text(format.fileExtension), .bytes(bytes)])
                        return try db.execute(insert, values: values).integer(0, 0) ?? 0
                    }
                } catch {
                    // Another editor removed the last entry of this photo, and with it the
                    // photo, between the two inserts: the photo goes in again.
                    guard db.lastFailure == "23503" && attempt < 3 else { throw error }
                }
            }
        }
        return Entry(
            id: id, words: words, photo: name, width: width, height: height, originalName: originalName, created: now,
            updated: now, credits: credits)
    }

    /// Changes an entry's caption; its credits stay unless `credits` are given.
    func update(id: Int64, words: CaptionWords, credits: Credits? = nil) throws(LibraryError) -> Entry {
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
        return try changed(
            id,
            "UPDATE caption.entries SET \(assignments.joined(separator: ", ")) WHERE id = $\(values.count) RETURNING \(Self.columns)",
            values)
    }

    /// Records where an entry's photo lives outside the library, and its SHA-256 there.
    func setSource(id: Int64, path: String?, sha256: String?) throws(LibraryError) -> Entry {
        try changed(
            id, "UPDATE caption.entries SET source = $1, source_sha256 = $2 WHERE id = $3 RETURNING \(Self.columns)",
            [path.map(PostgresValue.text) ?? .null, sha256.map(PostgresValue.text) ?? .null, .text(String(id))])
    }

    private func changed(_ id: Int64, _ sql: String, _ values: [PostgresValue]) throws(LibraryError) -> Entry {
        let rows = try connection.withLock { (db) throws(LibraryError) -> PostgresResult in
            try db.execute(sql, values: values)
        }
        guard rows.rowCount == 1 else { throw Library.noSuchEntry(id) }
        return Self.entry(rows, 0)
    }

    /// Removes an entry and returns it; its photo's bytes go too when no other entry uses
    /// them. An entry another editor saves with the same photo at that moment keeps them:
    /// the key refuses the photo's removal, and the removal of the entry alone stands.
    func remove(id: Int64) throws(LibraryError) -> Entry {
        try connection.withLock { (db) throws(LibraryError) -> Entry in
            try db.write { () throws(LibraryError) -> Entry in
                let rows = try db.execute(
                    "DELETE FROM caption.entries WHERE id = $1 RETURNING \(Self.columns), photo_sha256", [String(id)])
                guard rows.rowCount == 1, let sha256 = rows.text(0, rows.columnCount - 1) else {
                    throw Library.noSuchEntry(id)
                }
                try db.execute("SAVEPOINT photo")
                do throws(LibraryError) {
                    try db.execute(
                        """
                        DELETE FROM caption.photos WHERE sha256 = $1
                        AND NOT EXISTS (SELECT 1 FROM caption.entries WHERE photo_sha256 = $1)
                        """, [sha256])
                    try db.execute("RELEASE SAVEPOINT photo")
                } catch {
                    // Only the key's refusal (another editor's entry uses the photo) is
                    // expected here; anything else fails the removal.
                    guard db.lastFailure == "23503" else { throw error }
                    try db.execute("ROLLBACK TO SAVEPOINT photo")
                }
                return Self.entry(rows, 0)
            }
        }
    }

    // MARK: Reading

    /// Every entry, newest first.
    func entries() throws(LibraryError) -> [Entry] {
        try connection.withLock { (db) throws(LibraryError) -> [Entry] in
            Self.entries(try db.execute("SELECT \(Self.columns) FROM caption.entries ORDER BY created DESC, id DESC"))
        }
    }

    /// The entries whose title or subtitle contains `text` (case aside), newest first; all
    /// of them for empty text. The trigram indexes serve the LIKE.
    func entries(matching text: String) throws(LibraryError) -> [Entry] {
        let query = text.trimmingWhiteSpace
        guard !query.isEmpty else { return try entries() }
        var escaped = ""
        for character in query {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        let condition = CaptionField.allCases.map { "lower(\($0.rawValue)) LIKE '%' || lower($1) || '%'" }
            .joined(separator: " OR ")
        return try connection.withLock { (db) throws(LibraryError) -> [Entry] in
            Self.entries(
                try db.execute(
                    "SELECT \(Self.columns) FROM caption.entries WHERE \(condition) ORDER BY created DESC, id DESC",
                    [escaped]))
        }
    }

    /// The entry with this number, or nil.
    func entry(id: Int64) throws(LibraryError) -> Entry? {
        let rows = try connection.withLock { (db) throws(LibraryError) -> PostgresResult in
            try db.execute("SELECT \(Self.columns) FROM caption.entries WHERE id = $1", [String(id)])
        }
        return rows.rowCount == 1 ? Self.entry(rows, 0) : nil
    }

    func count() throws(LibraryError) -> Int {
        try connection.withLock { (db) throws(LibraryError) -> Int in
            Int(try db.execute("SELECT count(*) FROM caption.entries").integer(0, 0) ?? 0)
        }
    }

    /// The bytes of an entry's photo, as saved; nil when the entry names no stored photo.
    func photoBytes(of entry: Entry) throws(LibraryError) -> [UInt8]? {
        guard PhotoFolder.isStoredPhoto(entry.photo) else { return nil }
        let sha256 = String(entry.photo.dropFirst("photos/".count).prefix(64))
        let rows = try connection.withLock { (db) throws(LibraryError) -> PostgresResult in
            try db.execute(
                "SELECT bytes FROM caption.photos WHERE sha256 = $1", values: [.text(sha256)], binaryResult: true)
        }
        return rows.rowCount == 1 ? rows.bytes(0, 0) : nil
    }
}
