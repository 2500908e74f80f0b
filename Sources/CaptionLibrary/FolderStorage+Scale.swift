// A folder library read a page or a stream at a time, counted and indexed for search: the
// SQLite side of `Library+Scale`.

import CSQLite
import CaptionText

extension FolderStorage {
    func forEachEntry(
        _ order: Library.Order, after cursor: EntryCursor?, through last: EntryCursor?, limit: Int?,
        _ body: (Entry) -> Bool
    ) throws(LibraryError) {
        try database.withLock { (db) throws(LibraryError) in
            var conditions: [String] = []
            if cursor != nil { conditions.append(order.after) }
            if last != nil {
                conditions.append(order == .newestFirst ? "(created, id) >= (?3, ?4)" : "(created, id) <= (?3, ?4)")
            }
            let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            let statement = try db.prepare(
                "SELECT \(Library.columns) FROM entries \(filter) ORDER BY \(order.sql) LIMIT ?5")
            if let cursor {
                statement.bind(1, cursor.created)
                statement.bind(2, cursor.id)
            }
            if let last {
                statement.bind(3, last.created)
                statement.bind(4, last.id)
            }
            statement.bind(5, Int64(limit ?? -1))  // a negative limit is none
            while try statement.step() {
                if !body(Library.entry(statement)) { return }
            }
        }
    }

    func forEachTitle(_ body: (String) -> Bool) throws(LibraryError) {
        try database.withLock { (db) throws(LibraryError) in
            let statement = try db.prepare("SELECT title FROM entries")
            while try statement.step() {
                if !body(statement.text(0)) { return }
            }
        }
    }

    func entries(ids: [Int64]) throws(LibraryError) -> [Int64: Entry] {
        try database.withLock { (db) throws(LibraryError) -> [Int64: Entry] in
            // One bound parameter, a JSON array of numbers: no SQL is ever spliced.
            let statement = try db.prepare(
                "SELECT \(Library.columns) FROM entries WHERE id IN (SELECT value FROM json_each(?))")
            statement.bind(1, "[" + ids.map(String.init).joined(separator: ",") + "]")
            var found: [Int64: Entry] = [:]
            found.reserveCapacity(ids.count)
            while try statement.step() {
                let entry = Library.entry(statement)
                found[entry.id] = entry
            }
            return found
        }
    }

    func largestID() throws(LibraryError) -> Int64 {
        try database.withLock { (db) throws(LibraryError) -> Int64 in
            try db.integer("SELECT coalesce(max(id), 0) FROM entries")
        }
    }

    func count() throws(LibraryError) -> Int {
        try database.withLock { (db) throws(LibraryError) -> Int in Int(try db.integer("SELECT count(*) FROM entries"))
        }
    }

    func contentVersion() throws(LibraryError) -> ContentVersion {
        try database.withLock { (db) throws(LibraryError) -> ContentVersion in try FolderStorage.contentVersion(db) }
    }

    /// `PRAGMA data_version` counts other connections' commits and not this one's, which
    /// `Database` counts itself: together they change with every commit.
    private static func contentVersion(_ db: Database) throws(LibraryError) -> ContentVersion {
        ContentVersion(others: try db.integer("PRAGMA data_version"), own: db.commits)
    }

    func searchIndex() throws(LibraryError) -> SearchIndex {
        try database.withLock { (db) throws(LibraryError) -> SearchIndex in
            let key = try FolderStorage.contentVersion(db)
            if let index = db.searchIndex, let known = db.searchIndexKey, known == key { return index }
            let statement = try db.prepare(
                "SELECT id, \(Library.fieldColumns) FROM entries ORDER BY created DESC, id DESC")
            let fields = Int32(CaptionField.allCases.count)
            var builder = SearchIndex.Builder()
            while try statement.step() {
                builder.start(id: statement.integer(0))
                for column in 1...fields { builder.add(field: statement.bytes(column), last: column == fields) }
            }
            let index = builder.finish()
            db.searchIndex = index
            db.searchIndexKey = key
            return index
        }
    }

    func usage(of field: CaptionField) throws(LibraryError) -> [FieldUsage] {
        try database.withLock { (db) throws(LibraryError) -> [FieldUsage] in
            let column = field.rawValue
            let statement = try db.prepare(
                "SELECT \(column), COUNT(*), MAX(updated) FROM entries WHERE \(column) <> '' GROUP BY \(column)")
            var usage: [FieldUsage] = []
            while try statement.step() {
                usage.append(
                    FieldUsage(
                        text: statement.text(0), count: Int(statement.integer(1)),
                        lastUsed: Timestamp(millisecondsSince1970: statement.integer(2))))
            }
            return usage
        }
    }
}
