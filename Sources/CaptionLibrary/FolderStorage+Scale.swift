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

    /// Made once, then kept current: after this connection's own commits only the
    /// entries they changed are read (the update hook names them); after another
    /// connection's (another process) the whole library is read again.
    func searchIndex() throws(LibraryError) -> SearchIndex {
        try database.withLock { (db) throws(LibraryError) -> SearchIndex in
            while true {
                if let index = try FolderStorage.searchIndexStep(db, rows: .max) { return index }
            }
        }
    }

    func prepareSearchIndex(step rows: Int) throws(LibraryError) -> Bool {
        try database.withLock { (db) throws(LibraryError) -> Bool in
            try FolderStorage.searchIndexStep(db, rows: rows) != nil
        }
    }

    /// The index when it is current or can be brought up to date at once; else reads up to
    /// `rows` more entries into the one being made and returns nil until it is complete.
    /// Entries this connection changes between steps are read again at the end, as after
    /// any commit; another connection's commit starts the reading again.
    private static func searchIndexStep(_ db: Database, rows: Int) throws(LibraryError) -> SearchIndex? {
        let key = try contentVersion(db)
        if let index = db.searchIndex, let known = db.searchIndexKey, known.others == key.others {
            if known == key { return index }
            if let changed = db.entriesChangedSinceIndex {
                return remember(try updated(index, by: changed, db), in: db, as: key)
            }
        }
        if db.partialSearchIndex?.others != key.others || db.entriesChangedSinceIndex == nil {
            db.searchIndex = nil
            db.partialSearchIndex = (SearchIndex.Builder(), nil, key.others)
            db.entriesChangedSinceIndex = []
        }
        guard var partial = db.partialSearchIndex else { return nil }  // made just above
        // Let go of the stored copy first, so that the arrays grow in place.
        db.partialSearchIndex = nil
        let statement = try db.prepare(
            "SELECT id, created, \(Library.fieldColumns) FROM entries"
                + (partial.after == nil ? "" : " WHERE (created, id) < (?2, ?3)")
                + " ORDER BY created DESC, id DESC LIMIT ?1")
        statement.bind(1, Int64(clamping: rows))
        if let after = partial.after {
            statement.bind(2, after.created)
            statement.bind(3, after.id)
        }
        var read = 0
        while try statement.step() {
            add(statement, to: &partial.builder)
            read += 1
        }
        if read == rows, let id = partial.builder.ids.last, let created = partial.builder.created.last {
            partial.after = (created, id)
            db.partialSearchIndex = partial
            return nil
        }
        // Made under this connection's other commits: `entriesChangedSinceIndex` is not nil.
        return remember(
            try updated(partial.builder.finish(), by: db.entriesChangedSinceIndex ?? [], db), in: db, as: key)
    }

    /// `index` with these entries read again (those still in the library) in their places.
    private static func updated(
        _ index: SearchIndex, by changed: Set<Int64>, _ db: Database
    ) throws(LibraryError) -> SearchIndex {
        changed.isEmpty ? index : index.updating(changed, with: try searchIndex(db, of: changed))
    }

    private static func remember(_ index: SearchIndex, in db: Database, as key: ContentVersion) -> SearchIndex {
        db.searchIndex = index
        db.searchIndexKey = key
        db.entriesChangedSinceIndex = []
        return index
    }

    /// The index of these entries, those still in the library.
    private static func searchIndex(_ db: Database, of ids: Set<Int64>) throws(LibraryError) -> SearchIndex {
        let statement = try db.prepare(
            "SELECT id, created, \(Library.fieldColumns) FROM entries WHERE id IN (\(ids.map(String.init).joined(separator: ",")))"
                + " ORDER BY created DESC, id DESC")
        var builder = SearchIndex.Builder()
        while try statement.step() { add(statement, to: &builder) }
        return builder.finish()
    }

    /// One row of `id, created,` and the caption's fields.
    private static func add(_ statement: Statement, to builder: inout SearchIndex.Builder) {
        let fields = Int32(CaptionField.allCases.count)
        builder.start(id: statement.integer(0), created: statement.integer(1))
        for column in 2...(fields + 1) { builder.add(field: statement.bytes(column), last: column == fields + 1) }
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
